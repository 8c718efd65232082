import { CAPTURE_DEFAULTS, SCENE_LIMITS } from '@vitrine/contract';
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DevicePicture } from './devices.tsx';
import { buildFieldGroups, type FieldControl } from './fields.ts';
import {
  type Body,
  cliCommand,
  curlCommand,
  fetchSnippet,
  getField,
  jsonBody,
  minimalBody,
  setField,
} from './request.ts';
import './style.css';

interface Session {
  email: string;
  csrf: string;
  public_url: string;
  projects: { id: string; name: string; is_default: boolean }[];
  devices: { id: string; family: string; finishes: { name: string; color: string }[] }[];
}

interface Asset {
  id: string;
  name: string;
  background: string | null;
  thumbnail_url: string | null;
  pack: string | null;
  theme: string | null;
}

interface Pack {
  pack: string | null;
  theme: string | null;
  count: number;
}

const GROUPS = buildFieldGroups();
/** How long the controls must rest before a preview is asked for. */
const PREVIEW_DEBOUNCE_MS = 200;
/** The reference entry of a capture field in /docs (Scalar's model anchor). */
const FIELD_DOCS = '/docs#models/CaptureRequestInput';

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string; param?: string } };
    const param = body.error?.param ? ` (${body.error.param})` : '';
    return `${body.error?.message ?? response.statusText}${param}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/** A number input's value; empty means "back to the default". */
function numberOf(input: HTMLInputElement): number | undefined {
  return input.value === '' || !Number.isFinite(input.valueAsNumber) ? undefined : input.valueAsNumber;
}

function initialBody(): Body {
  const fromQuery = new URLSearchParams(window.location.search).get('url');
  return fromQuery ? { url: fromQuery } : {};
}

function Control({ field, body, onChange }: { field: FieldControl; body: Body; onChange(v: unknown): void }) {
  const id = `f-${field.path.join('-')}`;
  const value = getField(body, field.path);
  const shown = value ?? field.defaultValue;
  const label = (
    <span class="label-row">
      <label for={id}>{field.path.join('.')}</label>
      <a class="ref" href={FIELD_DOCS} title={`Reference: ${field.path.join('.')}`}>
        <span class="skip">Reference for {field.path.join('.')}</span>?
      </a>
    </span>
  );
  const hint = field.description ? <small id={`${id}-hint`}>{field.description}</small> : null;
  const described = field.description ? `${id}-hint` : undefined;
  switch (field.kind) {
    case 'boolean':
      return (
        <div class="field check">
          <input
            id={id}
            type="checkbox"
            checked={Boolean(shown)}
            aria-describedby={described}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
          {label}
          {hint}
        </div>
      );
    case 'chips':
      return (
        <fieldset class="field">
          <legend>
            {field.path.join('.')}{' '}
            <a class="ref" href={FIELD_DOCS}>
              <span class="skip">Reference for {field.path.join('.')}</span>?
            </a>
          </legend>
          <div class="chips" role="radiogroup" aria-describedby={described}>
            {field.options!.map((option) => (
              <label class={`chip${shown === option ? ' on' : ''}`} key={String(option)}>
                <input
                  type="radio"
                  name={id}
                  value={String(option)}
                  checked={shown === option}
                  onChange={() => onChange(option)}
                />
                {String(option)}
              </label>
            ))}
            {value !== undefined && field.defaultValue === undefined ? (
              <button type="button" class="chip clear" onClick={() => onChange(undefined)}>
                clear
              </button>
            ) : null}
          </div>
          {hint}
        </fieldset>
      );
    case 'select':
      return (
        <div class="field">
          {label}
          <select
            id={id}
            value={shown === undefined ? '' : String(shown)}
            aria-describedby={described}
            onChange={(e) => {
              const raw = e.currentTarget.value;
              const option = field.options!.find((o) => String(o) === raw);
              onChange(raw === '' ? undefined : option);
            }}
          >
            {field.defaultValue === undefined ? <option value="">(none)</option> : null}
            {field.options!.map((o) => (
              <option key={String(o)} value={String(o)}>
                {String(o)}
              </option>
            ))}
          </select>
          {hint}
        </div>
      );
    case 'slider':
      return (
        <div class="field">
          {label}
          <div class="slider">
            <input
              id={id}
              type="range"
              min={field.min}
              max={field.max}
              step={field.step}
              value={typeof shown === 'number' ? shown : field.min}
              aria-describedby={described}
              onInput={(e) => onChange(Number(e.currentTarget.value))}
            />
            <input
              type="number"
              aria-label={`${field.path.join('.')} value`}
              min={field.min}
              max={field.max}
              step={field.step}
              value={typeof shown === 'number' ? shown : ''}
              onInput={(e) => onChange(numberOf(e.currentTarget))}
            />
          </div>
          {hint}
        </div>
      );
    case 'number':
      return (
        <div class="field">
          {label}
          <input
            id={id}
            type="number"
            min={field.min}
            max={field.max}
            value={typeof shown === 'number' ? shown : ''}
            aria-describedby={described}
            onInput={(e) => onChange(numberOf(e.currentTarget))}
          />
          {hint}
        </div>
      );
    case 'viewport': {
      const v = (shown ?? { width: 1440, height: 900 }) as { width: number; height: number };
      return (
        <fieldset class="field">
          <legend>{field.path.join('.')}</legend>
          <div class="pair">
            <label>
              width
              <input
                type="number"
                min={320}
                value={v.width}
                onInput={(e) => {
                  const width = Number(e.currentTarget.value);
                  onChange((old: unknown) => ({ ...((old as typeof v | undefined) ?? v), width }));
                }}
              />
            </label>
            <label>
              height
              <input
                type="number"
                min={200}
                value={v.height}
                onInput={(e) => {
                  const height = Number(e.currentTarget.value);
                  onChange((old: unknown) => ({ ...((old as typeof v | undefined) ?? v), height }));
                }}
              />
            </label>
          </div>
          {hint}
        </fieldset>
      );
    }
    case 'list':
      return (
        <div class="field">
          {label}
          <input
            id={id}
            type="text"
            value={Array.isArray(value) ? value.join(', ') : ''}
            placeholder="comma-separated"
            aria-describedby={described}
            onChange={(e) =>
              onChange(
                e.currentTarget.value
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            }
          />
          {hint}
        </div>
      );
    case 'code':
      return (
        <div class="field">
          {label}
          <textarea
            id={id}
            rows={6}
            spellcheck={false}
            value={typeof value === 'string' ? value : ''}
            aria-describedby={described}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
          {hint}
        </div>
      );
    case 'json':
      return (
        <div class="field">
          {label}
          <textarea
            id={id}
            rows={3}
            value={value === undefined ? '' : JSON.stringify(value)}
            aria-describedby={described}
            onChange={(e) => {
              const text = e.currentTarget.value.trim();
              try {
                onChange(text === '' ? undefined : JSON.parse(text));
                e.currentTarget.setCustomValidity('');
              } catch {
                e.currentTarget.setCustomValidity('Not valid JSON');
                e.currentTarget.reportValidity();
              }
            }}
          />
          {hint}
        </div>
      );
    default:
      return (
        <div class={`field${field.kind === 'color' ? ' color' : ''}`}>
          {label}
          <div class="pair">
            <input
              id={id}
              type="text"
              value={typeof value === 'string' ? value : ''}
              placeholder={typeof field.defaultValue === 'string' ? field.defaultValue : ''}
              aria-describedby={described}
              onChange={(e) => onChange(e.currentTarget.value)}
            />
            {field.kind === 'color' ? (
              <input
                type="color"
                aria-label={`Pick ${field.path.join('.')}`}
                value={/^#[0-9a-f]{6}$/i.test(String(shown)) ? String(shown) : '#ffffff'}
                onInput={(e) => onChange(e.currentTarget.value.toUpperCase())}
              />
            ) : null}
          </div>
          {hint}
        </div>
      );
  }
}

function DevicePicker({
  session,
  body,
  set,
}: {
  session: Session;
  body: Body;
  set(p: string[], v: unknown): void;
}) {
  const current = body.device as string | undefined;
  const finishes = session.devices.find((d) => d.id === current)?.finishes ?? [];
  return (
    <div class="field">
      <fieldset>
        <legend>device</legend>
        <div class="devices" role="radiogroup">
          <label class={`device${current === undefined ? ' on' : ''}`}>
            <input
              type="radio"
              name="device"
              checked={current === undefined}
              onChange={() => set(['device'], undefined)}
            />
            <span class="none-pic" aria-hidden="true">
              ∅
            </span>
            none
          </label>
          {session.devices.map((d) => (
            <label class={`device${current === d.id ? ' on' : ''}`} key={d.id}>
              <input
                type="radio"
                name="device"
                value={d.id}
                checked={current === d.id}
                onChange={() => {
                  set(['device'], d.id);
                  set(['device_color'], undefined);
                }}
              />
              <DevicePicture device={d.id} family={d.family} color={d.finishes[0]?.color ?? '#888'} />
              {d.id}
            </label>
          ))}
        </div>
      </fieldset>
      {finishes.length > 0 ? (
        <fieldset>
          <legend>device_color</legend>
          <div class="swatches" role="radiogroup">
            {finishes.map((f, i) => {
              const on = (body.device_color ?? finishes[0]?.name) === f.name;
              return (
                <label class={`swatch${on ? ' on' : ''}`} key={f.name} title={f.name}>
                  <input
                    type="radio"
                    name="device_color"
                    checked={on}
                    onChange={() => set(['device_color'], i === 0 ? undefined : f.name)}
                  />
                  <span style={`background:${f.color}`} aria-hidden="true" />
                  {f.name}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}

/** Most shots a scene takes (the contract's SCENE_LIMITS). */
const MAX_SHOTS = SCENE_LIMITS.shots.max;

/**
 * The shots of a scene: "Add a shot" turns the capture into a scene (the page as the first shot,
 * a phone as the second), each shot with its own device, page and colour scheme; removing all
 * but one goes back to a single capture (without the scene's arrangement).
 */
function ShotsEditor({
  session,
  body,
  set,
}: {
  session: Session;
  body: Body;
  set(p: string[], v: unknown): void;
}) {
  const shots = (body.shots as Body[] | undefined) ?? [];
  const update = (index: number, field: string, value: unknown) => {
    const next = shots.map((shot, i) => {
      if (i !== index) return shot;
      const changed: Body = { ...shot, [field]: value };
      if (value === undefined || value === '' || value === false) delete changed[field];
      if (field === 'device') delete changed.device_color;
      return changed;
    });
    set(['shots'], next);
  };
  const add = () =>
    set(
      ['shots'],
      shots.length === 0 ? [{}, { device: 'iphone-16-pro' }] : [...shots, { device: 'iphone-16-pro' }],
    );
  const remove = (index: number) => {
    const next = shots.filter((_, i) => i !== index);
    set(['shots'], next.length < 2 ? undefined : next);
    // One shot left is a single capture again: a scene without shots is refused.
    if (next.length < 2) set(['scene'], undefined);
  };
  return (
    <div class="field shots">
      <ol class="shot-list">
        {shots.map((shot, index) => (
          <li key={index} class="shot">
            <label for={`shot-${index}-device`}>shot {index + 1} device</label>
            <select
              id={`shot-${index}-device`}
              value={String(shot.device ?? '')}
              onChange={(e) => update(index, 'device', e.currentTarget.value || undefined)}
            >
              <option value="">(the request's)</option>
              {session.devices.map((d) => (
                <option value={d.id} key={d.id}>
                  {d.id}
                </option>
              ))}
            </select>
            <label for={`shot-${index}-url`}>shot {index + 1} url</label>
            <input
              id={`shot-${index}-url`}
              type="url"
              placeholder="(the page above)"
              value={String(shot.url ?? '')}
              onChange={(e) => update(index, 'url', e.currentTarget.value.trim())}
            />
            <span class="check">
              <input
                id={`shot-${index}-dark`}
                type="checkbox"
                checked={shot.dark_mode === true}
                onChange={(e) => update(index, 'dark_mode', e.currentTarget.checked)}
              />
              <label for={`shot-${index}-dark`}>shot {index + 1} dark_mode</label>
            </span>
            <button type="button" onClick={() => remove(index)}>
              Remove shot {index + 1}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={add} disabled={shots.length >= MAX_SHOTS}>
        Add a shot
      </button>
    </div>
  );
}

function BackgroundBrowser({ body, set }: { body: Body; set(p: string[], v: unknown): void }) {
  const [packs, setPacks] = useState<Pack[]>([]);
  const [pack, setPack] = useState('');
  const [theme, setTheme] = useState('');
  const [query, setQuery] = useState('');
  const [assets, setAssets] = useState<Asset[]>([]);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    fetch('/v1/backgrounds/packs')
      .then((r) => r.json())
      .then((r: { packs: Pack[] }) => setPacks(r.packs))
      .catch(() => setPacks([]));
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    const params = new URLSearchParams({ limit: '24' });
    if (pack) params.set('pack', pack);
    if (theme) params.set('theme', theme);
    if (query.trim()) params.set('q', query.trim());
    const timer = setTimeout(() => {
      fetch(`/v1/backgrounds?${params}`, { signal: controller.signal })
        .then((r) => r.json())
        .then((r: { backgrounds: Asset[]; total: number }) => {
          setAssets(r.backgrounds.filter((a) => a.background));
          setTotal(r.total);
        })
        .catch(() => undefined);
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pack, theme, query]);
  const packNames = [...new Set(packs.map((p) => p.pack).filter((p): p is string => p !== null))];
  return (
    <fieldset class="field catalogue">
      <legend>
        Hosted backgrounds (<code>background</code>){' '}
        <a class="ref" href="/backgrounds">
          browse all
        </a>
      </legend>
      <div class="filters">
        <label>
          Pack
          <select value={pack} onChange={(e) => setPack(e.currentTarget.value)}>
            <option value="">all packs</option>
            {packNames.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Theme
          <select value={theme} onChange={(e) => setTheme(e.currentTarget.value)}>
            <option value="">any</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
            <option value="mixed">mixed</option>
          </select>
        </label>
        <label>
          Search
          <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
      </div>
      <p class="muted" aria-live="polite">
        {assets.length} of {total} shown
      </p>
      <div class="thumbs">
        {assets.map((a) => (
          <button
            type="button"
            key={a.id}
            class={`thumb${body.background === a.background ? ' on' : ''}`}
            aria-pressed={body.background === a.background}
            title={a.background ?? a.name}
            onClick={() => set(['background'], body.background === a.background ? undefined : a.background)}
          >
            {a.thumbnail_url ? <img src={new URL(a.thumbnail_url).pathname} alt="" loading="lazy" /> : null}
            <span>{a.name}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

type CopyKind = 'curl' | 'cli' | 'signed' | 'json' | 'fetch';
const COPY_LABELS: Record<CopyKind, string> = {
  curl: 'curl',
  cli: 'vitrine CLI',
  signed: 'Signed URL',
  json: 'JSON body',
  fetch: 'JS fetch',
};

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [body, setBody] = useState<Body>(initialBody);
  const [preview, setPreview] = useState<string | null>(null);
  const [previewIsVideo, setPreviewIsVideo] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [project, setProject] = useState('');
  const [signed, setSigned] = useState('');
  const [copyKind, setCopyKind] = useState<CopyKind>('curl');
  const [copied, setCopied] = useState(false);
  const inflight = useRef<AbortController | null>(null);
  const request = useMemo(() => minimalBody(body), [body]);
  const requestJson = JSON.stringify(request);

  useEffect(() => {
    fetch('/playground/api/session')
      .then(async (r) => {
        if (!r.ok) throw new Error(await errorMessage(r));
        return (await r.json()) as Session;
      })
      .then((s) => {
        setSession(s);
        setProject(s.projects.find((p) => p.is_default)?.id ?? s.projects[0]?.id ?? '');
      })
      .catch((e: Error) => setLoadError(e.message));
  }, []);

  // A new preview for every change of the request; the one in flight is cancelled first.
  useEffect(() => {
    // A page to load: a URL, or an HTML document (Target and browser: html).
    if (!session || (!request.url && !request.html)) return;
    const timer = setTimeout(async () => {
      inflight.current?.abort();
      const controller = new AbortController();
      inflight.current = controller;
      setStatus('Rendering…');
      const started = performance.now();
      try {
        const response = await fetch('/playground/api/preview', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ capture: request, _csrf: session.csrf }),
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(await errorMessage(response));
        const image = await response.blob();
        setPreviewIsVideo(image.type.startsWith('video/'));
        setPreview((old) => {
          if (old) URL.revokeObjectURL(old);
          return URL.createObjectURL(image);
        });
        setError(null);
        setStatus(`Rendered in ${Math.round(performance.now() - started)} ms`);
      } catch (e) {
        if ((e as Error).name === 'AbortError') return;
        setError((e as Error).message);
        setStatus('');
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [requestJson, session]);

  // The signed URL is minted by the server (it holds the project's secret) when it is shown.
  useEffect(() => {
    if (!session || copyKind !== 'signed' || !project || !request.url) return;
    const controller = new AbortController();
    setSigned('');
    fetch('/playground/api/sign', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capture: request, project_id: project, _csrf: session.csrf }),
      signal: controller.signal,
    })
      .then(async (r) => {
        if (!r.ok) throw new Error(await errorMessage(r));
        return (await r.json()) as { url: string };
      })
      .then((r) => setSigned(r.url))
      .catch((e: Error) => e.name !== 'AbortError' && setSigned(`# ${e.message}`));
    return () => controller.abort();
  }, [requestJson, session, copyKind, project]);

  if (loadError)
    return (
      <p class="error" role="alert">
        {loadError}
      </p>
    );
  if (!session) return <p aria-live="polite">Loading…</p>;

  // A value, or an update of the current value (controls that edit part of an object field).
  const set = (path: string[], value: unknown) =>
    setBody((b) =>
      setField(
        b,
        path,
        typeof value === 'function' ? (value as (old: unknown) => unknown)(getField(b, path)) : value,
      ),
    );
  const base = session.public_url;
  const snippet: Record<CopyKind, string> = {
    curl: curlCommand(base, request),
    cli: cliCommand(request),
    signed: project ? signed || 'Signing…' : 'Create a project first (vitrine projects create).',
    json: jsonBody(request),
    fetch: fetchSnippet(base, request),
  };
  const copy = async () => {
    await navigator.clipboard?.writeText(snippet[copyKind]).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <>
      <header class="top">
        <h1>Playground</h1>
        <nav aria-label="Site">
          <a href="/docs">API reference</a>
          <a href="/backgrounds">Backgrounds</a>
          <a href="/account">Account</a>
        </nav>
      </header>
      <main class="layout">
        <form class="controls" onSubmit={(e) => e.preventDefault()} aria-label="Capture settings">
          <div class="field url">
            <label for="f-url">Page URL</label>
            <input
              id="f-url"
              type="url"
              required={body.html === undefined}
              value={String(body.url ?? '')}
              placeholder={body.html === undefined ? 'https://example.com' : '(rendering the html field)'}
              onChange={(e) => set(['url'], e.currentTarget.value.trim())}
            />
          </div>
          {GROUPS.map((group) => (
            <details
              key={group.id}
              open={group.id === 'device' || group.id === 'background'}
              id={`g-${group.id}`}
            >
              <summary>{group.title}</summary>
              {group.id === 'device' ? <DevicePicker session={session} body={body} set={set} /> : null}
              {group.id === 'background' ? <BackgroundBrowser body={body} set={set} /> : null}
              {group.id === 'scene' ? <ShotsEditor session={session} body={body} set={set} /> : null}
              {group.fields
                .filter((f) => !(group.id === 'device' && (f.name === 'device' || f.name === 'device_color')))
                .map((field) => (
                  <Control
                    key={field.path.join('.')}
                    field={field}
                    body={body}
                    onChange={(v) => set(field.path, v)}
                  />
                ))}
            </details>
          ))}
        </form>
        <section class="output" aria-label="Preview and API call">
          <div class="preview">
            {preview && previewIsVideo ? (
              <video id="preview" src={preview} autoplay loop muted playsinline controls />
            ) : preview ? (
              <img id="preview" src={preview} alt="Preview of the capture" />
            ) : (
              <div class="placeholder" />
            )}
            <p class="status" role="status" aria-live="polite">
              {status}
            </p>
            {error ? (
              <p class="error" role="alert">
                {error}
              </p>
            ) : null}
          </div>
          <div class="copy">
            <div class="tabs" role="tablist" aria-label="Copy as">
              {(Object.keys(COPY_LABELS) as CopyKind[]).map((kind) => (
                <button
                  type="button"
                  role="tab"
                  key={kind}
                  id={`tab-${kind}`}
                  aria-selected={copyKind === kind}
                  aria-controls="snippet"
                  onClick={() => setCopyKind(kind)}
                >
                  {COPY_LABELS[kind]}
                </button>
              ))}
            </div>
            {copyKind === 'signed' ? (
              <label class="project">
                Project
                <select value={project} onChange={(e) => setProject(e.currentTarget.value)}>
                  {session.projects.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.id})
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <pre id="snippet" role="tabpanel" aria-labelledby={`tab-${copyKind}`} data-kind={copyKind}>
              {snippet[copyKind]}
            </pre>
            <button type="button" class="primary" onClick={copy}>
              {copied ? 'Copied' : `Copy ${COPY_LABELS[copyKind]}`}
            </button>
            <p class="muted">
              Only fields that differ from the defaults are included. Defaults:{' '}
              <a href="/docs#models/CaptureRequestInput">reference</a>. Replace <code>$VITRINE_API_KEY</code>{' '}
              with a key from your <a href="/account">account</a>. Output format default:{' '}
              {CAPTURE_DEFAULTS.output.format}.
            </p>
          </div>
        </section>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
