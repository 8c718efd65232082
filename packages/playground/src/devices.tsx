/** Small pictures of each device frame, drawn to scale-ish so the picker reads at a glance. */
export function DevicePicture({ device, family, color }: { device: string; family: string; color: string }) {
  const screen = 'var(--screen)';
  if (family === 'phone')
    return (
      <svg viewBox="0 0 40 64" width="28" height="44" aria-hidden="true">
        <rect x="4" y="2" width="32" height="60" rx="7" fill={color} />
        <rect x="6.5" y="4.5" width="27" height="55" rx="5" fill={screen} />
        {device.startsWith('iphone') ? (
          <rect x="16" y="6.5" width="8" height="2.6" rx="1.3" fill={color} />
        ) : (
          <circle cx="20" cy="7.6" r="1.3" fill={color} />
        )}
      </svg>
    );
  if (family === 'tablet')
    return (
      <svg viewBox="0 0 56 64" width="40" height="44" aria-hidden="true">
        <rect x="3" y="4" width="50" height="56" rx="5" fill={color} />
        <rect x="6" y="7" width="44" height="50" rx="2.5" fill={screen} />
      </svg>
    );
  if (family === 'laptop')
    return (
      <svg viewBox="0 0 72 48" width="56" height="38" aria-hidden="true">
        <rect x="10" y="4" width="52" height="34" rx="3" fill={color} />
        <rect x="12.5" y="6.5" width="47" height="29" rx="1" fill={screen} />
        <path d="M4 39h64l-4 5H8z" fill={color} />
      </svg>
    );
  if (family === 'desktop')
    return (
      <svg viewBox="0 0 72 48" width="56" height="38" aria-hidden="true">
        <rect x="8" y="2" width="56" height="36" rx="2.5" fill={color} />
        <rect x="10" y="4" width="52" height="27" fill={screen} />
        <rect x="31" y="38" width="10" height="7" fill={color} />
        <rect x="26" y="44.5" width="20" height="2" rx="1" fill={color} />
      </svg>
    );
  if (family === 'watch')
    return (
      <svg viewBox="0 0 40 64" width="28" height="44" aria-hidden="true">
        <rect x="11" y="2" width="18" height="60" rx="4" fill={color} opacity="0.75" />
        <rect x="6" y="16" width="28" height="32" rx="8" fill={color} />
        <rect x="9" y="19" width="22" height="26" rx="6" fill={screen} />
      </svg>
    );
  return (
    <svg viewBox="0 0 72 48" width="56" height="38" aria-hidden="true">
      <rect x="4" y="6" width="64" height="38" rx="3" fill={color} />
      <rect
        x="6"
        y={family === 'terminal' ? 11 : 13}
        width="60"
        height={family === 'terminal' ? 31 : 29}
        fill={screen}
      />
      {device.endsWith('windows') ? (
        <path d="M56 9.5h2M60.5 8.5v2h2v-2zM64 8.5l2 2M66 8.5l-2 2" stroke="var(--fg)" stroke-width="0.6" />
      ) : device === 'browser-minimal' ? (
        <>
          <circle cx="9" cy="9.5" r="1.3" fill="var(--fg)" opacity="0.35" />
          <circle cx="13" cy="9.5" r="1.3" fill="var(--fg)" opacity="0.35" />
          <circle cx="17" cy="9.5" r="1.3" fill="var(--fg)" opacity="0.35" />
          <rect x="26" y="8" width="20" height="3" rx="1.5" fill={screen} />
        </>
      ) : (
        <>
          <circle cx="9" cy={family === 'terminal' ? 8.5 : 9.5} r="1.4" fill="#ff5f57" />
          <circle cx="13" cy={family === 'terminal' ? 8.5 : 9.5} r="1.4" fill="#febc2e" />
          <circle cx="17" cy={family === 'terminal' ? 8.5 : 9.5} r="1.4" fill="#28c840" />
        </>
      )}
    </svg>
  );
}
