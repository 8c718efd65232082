import opentype from 'opentype.js';
import { describe, expect, it } from 'vitest';
import {
  cjkRegionFor,
  cutFace,
  listSystemCjkFaces,
  parseFcList,
  pickCjkFace,
  type SystemCjkFace,
} from './system-cjk-faces.ts';

const FC_OUTPUT = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc\t0\tNoto Sans CJK JP\t80',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc\t2\tNoto Sans CJK SC\t200',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc\t7\tNoto Sans Mono CJK SC\t80',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc\t1\tNoto Serif CJK KR\t80',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\t0\tDejaVu Sans\t80',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-VF.otf.ttc\t0\tNoto Sans CJK JP\t[0 210]',
  'garbage without tabs',
  '',
].join('\n');

const face = (over: Partial<SystemCjkFace>): SystemCjkFace => ({
  file: '/f.ttc',
  index: 0,
  genre: 'sans',
  region: 'JP',
  weight: 400,
  ...over,
});

describe('parseFcList', () => {
  it('keeps the static Noto CJK faces with their genre, region and CSS weight', () => {
    expect(parseFcList(FC_OUTPUT)).toEqual([
      {
        file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
        index: 0,
        genre: 'sans',
        region: 'JP',
        weight: 400,
      },
      {
        file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
        index: 2,
        genre: 'sans',
        region: 'SC',
        weight: 700,
      },
      {
        file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
        index: 7,
        genre: 'mono',
        region: 'SC',
        weight: 400,
      },
      {
        file: '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
        index: 1,
        genre: 'serif',
        region: 'KR',
        weight: 400,
      },
    ]);
  });
});

describe('cjkRegionFor', () => {
  it('reads kana as Japanese, Hangul as Korean and Han alone as Simplified Chinese', () => {
    expect(cjkRegionFor('日本語のタイトル')).toBe('JP');
    expect(cjkRegionFor('カタカナ')).toBe('JP');
    expect(cjkRegionFor('한국어 제목')).toBe('KR');
    expect(cjkRegionFor('中文标题')).toBe('SC');
  });
});

describe('pickCjkFace', () => {
  const faces = [
    face({ genre: 'sans', region: 'JP', weight: 400 }),
    face({ genre: 'sans', region: 'JP', weight: 700 }),
    face({ genre: 'sans', region: 'SC', weight: 400 }),
    face({ genre: 'serif', region: 'KR', weight: 400 }),
  ];

  it('takes the genre and region asked for at the nearest weight', () => {
    expect(pickCjkFace(faces, { genre: 'sans', region: 'JP', weight: 800 })).toEqual(faces[1]);
    expect(pickCjkFace(faces, { genre: 'sans', region: 'JP', weight: 500 })).toEqual(faces[0]);
    expect(pickCjkFace(faces, { genre: 'sans', region: 'SC', weight: 700 })).toEqual(faces[2]);
  });

  it('falls back to sans for a missing genre and to any region for a missing one', () => {
    expect(pickCjkFace(faces, { genre: 'mono', region: 'SC', weight: 400 })).toEqual(faces[2]);
    expect(pickCjkFace(faces, { genre: 'serif', region: 'JP', weight: 400 })).toEqual(faces[3]);
    expect(pickCjkFace(faces, { genre: 'sans', region: 'TC', weight: 700 })).toEqual(faces[1]);
  });

  it('has nothing to pick when the system has no CJK faces', () => {
    expect(pickCjkFace([], { genre: 'sans', region: 'JP', weight: 400 })).toBeNull();
  });
});

// The system's faces: `make install` adds Debian's fonts-noto-cjk (Chromium draws pages with it).
describe('the system faces, cut by HarfBuzz', () => {
  it('lists the installed Noto CJK faces and cuts one to the characters asked for', async () => {
    const faces = await listSystemCjkFaces();
    const sansJp = pickCjkFace(faces, { genre: 'sans', region: 'JP', weight: 700 });
    expect(sansJp, 'fonts-noto-cjk is installed by make install').not.toBeNull();
    const data = await cutFace(sansJp as SystemCjkFace, '日本語のA');
    // A handful of glyphs, not the 20 MB collection.
    expect(data.byteLength).toBeLessThan(20_000);
    const font = opentype.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    for (const ch of '日本語のA') expect(font.charToGlyphIndex(ch), ch).toBeGreaterThan(0);
    for (const ch of '中文한') expect(font.charToGlyphIndex(ch), ch).toBe(0);
    expect(font.names.fontFamily?.en).toBe('Noto Sans CJK JP');
  });

  it('fails with a clear error for a file that is not a font', async () => {
    await expect(cutFace(face({ file: import.meta.filename }), '日')).rejects.toThrow(/could not cut/);
  });
});
