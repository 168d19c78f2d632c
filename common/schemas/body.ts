import { z } from 'zod';

/**
 * A request body that refuses keys it does not know, so a typo or a body of stray keys is a 400
 * naming them instead of a silent no-op save (issue 9, defect 8).
 *
 * `sentBack` is the object as GET returns it: SPEC.md §7 lets clients PUT or POST back the whole
 * object (the web app approves a license by sending the license), so its read-only fields are
 * accepted, as GET types them, and dropped; anything else is refused. The OpenAPI document marks
 * them `readOnly` with their types, so a generated client gets the object's type, not `unknown`.
 */
export function strictBody<S extends z.ZodRawShape>(shape: S, sentBack?: z.ZodObject) {
  const readOnly = Object.keys(sentBack?.shape ?? {}).filter((key) => !(key in shape));
  // The read-only keys stay out of the types: the server never reads them.
  const accepted = Object.fromEntries(readOnly.map((key) => [key, sentBack!.shape[key].optional().meta({ readOnly: true })])) as Record<never, never>;
  return z.strictObject({ ...accepted, ...shape }).transform((value) => {
    const kept: Record<string, unknown> = { ...value };
    for (const key of readOnly) delete kept[key];
    return kept as z.output<z.ZodObject<S, z.core.$strict>>;
  });
}
