/**
 * The resource form of the details and new screens (SPEC.md §3 "Resource"). It checks with the
 * API's own schema before sending, and shows the server's field errors on the field as well.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { RESOURCE_ACCESS, RESOURCE_TYPES } from '../../../../common/enums';
import { resourceInputSchema, type Resource, type ResourceInput } from '../../../../common/schemas/resource';
import { MONOSPACE } from '../../../components/monospace';
import { RESOURCE_ACCESS_LABELS, RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { ApiError } from '../../../lib/api';

type Field = keyof ResourceInput;
type Errors = Partial<Record<Field, string>>;

interface Values {
  ordinal: number | string;
  resource_name: string;
  resource_type: ResourceInput['resource_type'];
  resource_access: ResourceInput['resource_access'];
  path_pattern: string;
  location: string;
  description: string;
}

const TYPE_OPTIONS = RESOURCE_TYPES.map((value) => ({ value, label: RESOURCE_TYPE_LABELS[value] }));
const ACCESS_OPTIONS = RESOURCE_ACCESS.map((value) => ({ value, label: RESOURCE_ACCESS_LABELS[value] }));

function initialValues(resource: Resource | null): Values {
  return {
    ordinal: resource?.ordinal ?? '',
    resource_name: resource?.resource_name ?? '',
    resource_type: resource?.resource_type ?? 'LINUX_PACKAGE',
    resource_access: resource?.resource_access ?? 'DEFAULT',
    path_pattern: resource?.path_pattern ?? '',
    location: resource?.location ?? '',
    description: resource?.description ?? '',
  };
}

function toInput(values: Values) {
  return {
    ordinal: values.ordinal === '' ? undefined : Number(values.ordinal),
    resource_name: values.resource_name,
    resource_type: values.resource_type,
    resource_access: values.resource_access,
    path_pattern: values.path_pattern,
    location: values.location,
    description: values.description.trim() ? values.description : null,
  };
}

const MONOSPACE_INPUT = { input: MONOSPACE };

const FIELDS = new Set<string>(['ordinal', 'resource_name', 'resource_type', 'resource_access', 'path_pattern', 'location', 'description']);

/** The field a failed call names: `field` of the body, or the ordinal of a 409 "Ordinal … is taken". */
function fieldOfError(error: ApiError): Field | null {
  const field = error.field ?? (error.status === 409 && /^ordinal/i.test(error.message) ? 'ordinal' : undefined);
  return field && FIELDS.has(field) ? (field as Field) : null;
}

export interface ResourceFormProps {
  resource: Resource | null;
  editable: boolean;
  submitLabel: string;
  onSubmit: (input: ResourceInput) => Promise<unknown>;
  /** Further buttons beside the submit button (Delete). */
  actions?: ReactNode;
}

export function ResourceForm({ resource, editable, submitLabel, onSubmit, actions }: ResourceFormProps) {
  const [values, setValues] = useState<Values>(() => initialValues(resource));
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resourceInputSchema.safeParse(toInput(values));
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as Field;
        next[field] ??= issue.message === 'Invalid input' ? 'is not valid' : issue.message;
      }
      setErrors(next);
      return;
    }
    setSubmitting(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      // lib/api.ts has shown the message as a toast; put it on the field it names too.
      const field = error instanceof ApiError ? fieldOfError(error) : null;
      if (field && error instanceof ApiError) setErrors({ [field]: error.message });
    } finally {
      setSubmitting(false);
    }
  };

  const readOnly = !editable;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Resource">
      <Stack gap="md" maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Name"
            description={editable ? 'Shown to the organizations that may use it.' : undefined}
            required={editable}
            readOnly={readOnly}
            value={values.resource_name}
            onChange={(event) => set('resource_name', event.currentTarget.value)}
            error={errors.resource_name}
            maxLength={200}
          />
          <NumberInput
            label="Ordinal"
            description={editable ? 'Position in the gateway routes; empty for the next free one.' : undefined}
            readOnly={readOnly}
            value={values.ordinal}
            onChange={(value) => set('ordinal', value)}
            error={errors.ordinal}
            min={1}
            max={1_000_000}
            allowDecimal={false}
            allowNegative={false}
          />
          <Select
            label="Type"
            description={editable ? 'What the gateway serves from the location.' : undefined}
            data={TYPE_OPTIONS}
            readOnly={readOnly}
            value={values.resource_type}
            onChange={(value) => value && set('resource_type', value as Values['resource_type'])}
            error={errors.resource_type}
            allowDeselect={false}
          />
          <Select
            label="Access"
            description={editable ? 'Restricted: only organizations granted it may use it.' : undefined}
            data={ACCESS_OPTIONS}
            readOnly={readOnly}
            value={values.resource_access}
            onChange={(value) => value && set('resource_access', value as Values['resource_access'])}
            error={errors.resource_access}
            allowDeselect={false}
          />
          <TextInput
            label="Path pattern"
            description={editable ? 'As the gateway matches it, e.g. /packages/beta/**' : undefined}
            required={editable}
            readOnly={readOnly}
            value={values.path_pattern}
            onChange={(event) => set('path_pattern', event.currentTarget.value)}
            error={errors.path_pattern}
            styles={MONOSPACE_INPUT}
            maxLength={500}
          />
          <TextInput
            label="Location"
            description={editable ? 'Absolute path on the server, e.g. /srv/packages/beta' : undefined}
            required={editable}
            readOnly={readOnly}
            value={values.location}
            onChange={(event) => set('location', event.currentTarget.value)}
            error={errors.location}
            styles={MONOSPACE_INPUT}
            maxLength={1000}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          readOnly={readOnly}
          value={values.description}
          onChange={(event) => set('description', event.currentTarget.value)}
          error={errors.description}
          autosize
          minRows={3}
          maxLength={2000}
        />
        {editable || actions ? (
          <Group gap="sm">
            {editable ? (
              <Button type="submit" loading={submitting}>
                {submitLabel}
              </Button>
            ) : null}
            {actions}
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
