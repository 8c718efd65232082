import crypto from 'node:crypto';

/**
 * The one stylesheet of the signed-in web pages (sign-in, device approval, account, and the
 * playground when it comes), served at /web.css. Light and dark follow the system; every
 * control is at least 44 px tall so it is easy to hit on a phone.
 */
export const WEB_STYLESHEET = `:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#14171f;--muted:#5b6475;--line:#dde1e8;--accent:#4338ca;--accent-text:#fff;--danger:#b42318;--ok:#067647;--warn-bg:#fff6e0;--warn-line:#f0c36d;--code:#eef0f4}
@media (prefers-color-scheme:dark){:root{--bg:#0d0f14;--card:#151922;--text:#e6e8ee;--muted:#9aa3b2;--line:#2a3140;--accent:#818cf8;--accent-text:#0d0f14;--danger:#f97066;--ok:#47cd89;--warn-bg:#2b2210;--warn-line:#7a5a14;--code:#222838}}
*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:8px;z-index:2}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:12px 20px;border-bottom:1px solid var(--line);background:var(--card)}
header.site .brand{font-weight:700;font-size:18px;text-decoration:none;color:var(--text);margin-right:auto}
header.site nav{display:flex;align-items:center;gap:12px;flex-wrap:wrap}header.site form{margin:0}
main{max-width:880px;margin:0 auto;padding:24px 16px 48px}main.narrow{max-width:460px}
h1{font-size:26px;line-height:1.25;margin:8px 0 16px}h2{font-size:20px;margin:32px 0 12px}
p{margin:0 0 12px}.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px;margin:0 0 16px}
label{display:block;font-weight:600;margin:0 0 6px}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;min-height:44px;padding:10px 12px;font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:8px;margin:0 0 16px}
input.code{font:600 24px/1.2 ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.12em;text-transform:uppercase;text-align:center}
fieldset{border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:0 0 16px}legend{font-weight:600;padding:0 4px}
.checks{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:4px 12px}.checks label{font-weight:400;display:flex;align-items:center;gap:8px;min-height:36px;margin:0}
button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:10px 18px;font-family:inherit;font-size:16px;font-weight:600;line-height:1;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer;text-decoration:none}
button.secondary{background:transparent;color:var(--accent)}button.danger{background:transparent;border-color:var(--danger);color:var(--danger)}
button.small{min-height:36px;padding:6px 12px;font-size:14px}.actions{display:flex;gap:12px;flex-wrap:wrap}
.error{border:1px solid var(--danger);color:var(--danger);border-radius:8px;padding:12px 14px;margin:0 0 16px}
.notice{border:1px solid var(--ok);border-radius:8px;padding:12px 14px;margin:0 0 16px}
.warning{background:var(--warn-bg);border:1px solid var(--warn-line);border-radius:8px;padding:12px 14px;margin:0 0 16px;font-weight:600}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0 0 16px}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
code,.secret{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);border-radius:6px;padding:1px 6px;overflow-wrap:anywhere}
.secret{display:block;padding:12px;font-size:15px;user-select:all;margin:8px 0}
.big-code{font:700 32px/1.2 ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.12em}
.table-wrap{overflow-x:auto;margin:0 0 16px}td code{white-space:nowrap}
@media (max-width:600px){.stack,.stack tbody,.stack tr,.stack td{display:block}.stack thead{position:absolute;left:-9999px}.stack tr{border-bottom:1px solid var(--line);padding:10px 0}.stack td{border:0;padding:2px 0}.stack td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}}table{border-collapse:collapse;width:100%;font-size:15px}th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:600}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:1px 8px;border-radius:99px;background:var(--code);color:var(--muted)}.badge.ok{color:var(--ok)}.badge.off{color:var(--danger)}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:12px;margin:0 0 16px}.stats div{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px}.stats b{display:block;font-size:24px}
.bars{display:flex;align-items:flex-end;gap:2px;height:64px;margin:8px 0}.bars span{flex:1;background:var(--accent);min-height:1px;border-radius:2px 2px 0 0}
${Array.from({ length: 21 }, (_, i) => `.bars .h${i}{height:${i * 5}%}`).join('')}
`;

/** Strong validator for /web.css, so browsers revalidate cheaply. */
export const WEB_STYLESHEET_ETAG = `"${crypto.createHash('sha256').update(WEB_STYLESHEET).digest('base64url').slice(0, 16)}"`;
