/**
 * A DN as text that wraps between its RDNs (after each unescaped comma) before it wraps anywhere
 * else. <wbr> adds no characters, so the accessible name and a copied DN stay exact.
 */
import { Fragment } from 'react';

export function DistinguishedName({ dn }: { dn: string }) {
  // RFC 4514 escapes a comma inside a value as "\,": only the others separate RDNs.
  const parts = dn.split(/(?<=(?<!\\),)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
