/**
 * The one way to build a form (docs/decisions.md "Forms"): @mantine/form's useForm, checked on
 * submit by a zod schema from common/schemas (the one the server checks that body with, or a
 * feature's form-values schema made of its field schemas), with the messages as sentences under
 * their fields, each cleared when its field changes; and a server 400 that names a field shown
 * under that field instead of as a toast (applyServerError). The resolver only calls the schema:
 * zod runs jitless (lib/zod-without-eval.ts).
 *
 * Not on blur: a message appearing as a field loses the focus moves what is below it, the submit
 * button among them, between the press and the release of the click on it, and the click is lost.
 */
import { useMemo } from 'react';
import { useForm, type FormErrors, type LooseKeys, type UseFormReturnType } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { z } from 'zod';
import { ApiError } from './api';
import { sentence, serverFieldError, type FieldAliases } from './form-errors';

// Mantine's own constraint on form values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FormValues = Record<string, any>;

export type SchemaForm<Values extends FormValues> = UseFormReturnType<Values, Values, (values: Values) => FormErrors>;

/**
 * Moves the focus to the first (in the page's order) of these fields once their messages show:
 * a message is its input's description then, read out with it.
 */
function focusFirst<Values extends FormValues>(form: SchemaForm<Values>, paths: string[]) {
  setTimeout(() => {
    const inputs = paths.map((path) => form.getInputNode(path as LooseKeys<Values>)).filter((input) => input !== null);
    inputs.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    inputs[0]?.focus();
  });
}

/**
 * useForm checked by `schema` (zod 4) on submit; a failed submit focuses the first field with an
 * error. `schema` is a module constant: the resolver is made once per schema.
 */
export function useSchemaForm<Values extends FormValues>(schema: z.core.$ZodType, initialValues: Values): SchemaForm<Values> {
  const validate = useMemo(() => {
    const resolve = zod4Resolver(schema, { errorPriority: 'first' });
    return (values: Values): FormErrors =>
      Object.fromEntries(Object.entries(resolve(values)).map(([path, message]) => [path, typeof message === 'string' ? sentence(message) : message]));
  }, [schema]);
  const form = useForm<Values, Values, FormErrors>({ mode: 'controlled', initialValues, validate });
  const onSubmit: SchemaForm<Values>['onSubmit'] = (handleSubmit, handleFailure) =>
    form.onSubmit(handleSubmit, (errors, values, event) => {
      focusFirst(form, Object.keys(errors));
      handleFailure?.(errors, values, event);
    });
  return { ...form, onSubmit };
}

/**
 * Shows a server 400 (or 409 about a taken value) that names a field (common/schemas/error.ts) under the form's field for it,
 * and keeps lib/api.ts from showing it as a toast. `aliases` maps the body's names the form calls
 * otherwise. False when the error names no field of the form: its toast shows as usual.
 */
export function applyServerError<Values extends FormValues>(form: SchemaForm<Values>, error: unknown, aliases?: FieldAliases): boolean {
  if (!(error instanceof ApiError)) return false;
  const found = serverFieldError(error, form.getValues(), aliases);
  if (!found) return false;
  error.shownOnField = true;
  form.setFieldError(found.path as LooseKeys<Values>, found.message);
  focusFirst(form, [found.path]);
  return true;
}

/**
 * A NumberInput's value (a number, or '' while the box is empty) checked by a common number
 * schema: an empty box is left out (undefined, for the schema's default or optional), or, when
 * `required`, refused with "is required".
 */
export function numberInput<S extends z.ZodType>(schema: S, { required = false } = {}) {
  return z.preprocess((value, ctx) => {
    if (value !== '') return value;
    if (required) ctx.addIssue({ code: 'custom', message: 'is required' });
    return undefined;
  }, schema);
}
