import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { half } from './gallery-scenes.ts';

/** A title, a subtitle and a free text overlay (on the screenshot, in a box it must fit). */
const scene = (title: string, subtitle: string, text: string, extra: StyleRequest = {}): StyleRequest =>
  half({
    title,
    subtitle,
    text_enabled: true,
    text_content: text,
    text_size: 30,
    text_weight: 700,
    text_color: '#ffffff',
    text_shadow: '0 2px 6px rgba(0,0,0,0.55)',
    text_x: 0.5,
    text_y: 0.62,
    text_max_width: 420,
    text_autofit: true,
    text_fit_min: 14,
    text_box_h: 96,
    ...extra,
  });

/**
 * Text in the scripts issue 34 names (and a mixed-direction line), each as a title, a subtitle
 * and an auto-fitted overlay: Arabic joining, Indic conjuncts and Thai clusters need shaping,
 * Arabic, Persian and Hebrew right-to-left order with Latin and numbers inside.
 */
export const SCRIPT_GALLERY: Record<string, StyleRequest> = {
  arabic: scene('مرحبا بالعالم', 'لوحة تحكم تحليلية في الوقت الفعلي', 'نمو المستخدمين ٢٤٪ هذا الأسبوع'),
  hebrew: scene('שלום עולם', 'לוח מחוונים לצוותים עסוקים', 'ההרשמות עלו ב-24% השבוע'),
  persian: scene('سلام دنیا', 'داشبورد تحلیلی برای تیم‌های شما', 'رشد ۲۴ درصدی کاربران در این هفته'),
  devanagari: scene('नमस्ते दुनिया', 'आपकी टीम के लिए विश्लेषण', 'इस सप्ताह पंजीकरण में २४% की वृद्धि'),
  bengali: scene('হ্যালো বিশ্ব', 'আপনার দলের জন্য বিশ্লেষণ', 'এই সপ্তাহে নিবন্ধন ২৪% বৃদ্ধি পেয়েছে'),
  tamil: scene('வணக்கம் உலகம்', 'உங்கள் குழுவுக்கான பகுப்பாய்வு', 'இந்த வாரம் பதிவுகள் 24% உயர்ந்தன'),
  thai: scene('สวัสดีชาวโลก', 'แดชบอร์ดสำหรับทีมของคุณ', 'ยอดสมัครสมาชิกเพิ่มขึ้นยี่สิบสี่เปอร์เซ็นต์ในสัปดาห์นี้'),
  georgian: scene('გამარჯობა მსოფლიო', 'ანალიტიკა თქვენი გუნდისთვის', 'რეგისტრაციები 24%-ით გაიზარდა'),
  armenian: scene('Բարև աշխարհ', 'Վերլուծություն ձեր թիմի համար', 'Գրանցումներն աճել են 24%-ով'),
  greek: scene('Γειά σου Κόσμε', 'Αναλύσεις για την ομάδα σας', 'Οι εγγραφές αυξήθηκαν 24%'),
  cyrillic: scene('Привет, мир', 'Аналитика для вашей команды', 'Регистрации выросли на 24%'),
  cjk: scene('こんにちは世界', '안녕하세요 세계 · 你好，世界', '本周注册量增长了24%'),
  mixed: scene(
    'Vitrine 2.0 تدعم العربية و English معًا',
    'גרסה 3.5 של Vitrine זמינה עכשיו',
    'السعر 49 دولارًا فقط حتى 31 ديسمبر',
    { title_font: 'DM Serif Display', background_preset: 'midnight' },
  ),
};
