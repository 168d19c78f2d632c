export const MAIN_ID = 'main-content';

/** Lets keyboard users jump past the header and sidebar. */
export function SkipLink() {
  return (
    <a className="skip-link" href={`#${MAIN_ID}`}>
      Skip to content
    </a>
  );
}
