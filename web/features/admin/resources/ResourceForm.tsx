/**
 * The resource form of the details and new screens (SPEC.md §3 "Resource"), checked with the API's
 * own schema (lib/forms.ts); the server's field errors show under the field they name.
 */
import type { ReactNode } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { z } from 'zod';
import { RESOURCE_ACCESS, RESOURCE_TYPES } from '../../../../common/enums';
import { resourceInputSchema, type Resource, type ResourceInput } from '../../../../common/schemas/resource';
import { MONOSPACE } from '../../../components/monospace';
import { RESOURCE_ACCESS_LABELS, RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { applyServerError, numberInput, useSchemaForm } from '../../../lib/forms';

interface Values {
  /** '' while the box is empty: the next free one. */
  ordinal: number | string;
  resource_name: string;
  resource_type: ResourceInput['resource_type'];
  resource_access: ResourceInput['resource_access'];
  path_pattern: string;
  location: string;
  description: string;
}

/** The form's values: the body's own fields, the ordinal as its NumberInput holds it. */
const fields = resourceInputSchema.in.shape;
const valuesSchema = z.object({ ...fields, ordinal: numberInput(fields.ordinal) });

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

export interface ResourceFormProps {
  resource: Resource | null;
  editable: boolean;
  submitLabel: string;
  onSubmit: (input: ResourceInput) => Promise<unknown>;
  /** Further buttons beside the submit button (Delete). */
  actions?: ReactNode;
}

export function ResourceForm({ resource, editable, submitLabel, onSubmit, actions }: ResourceFormProps) {
  const form = useSchemaForm(valuesSchema, initialValues(resource));

  const submit = async (values: Values) => {
    try {
      await onSubmit(resourceInputSchema.parse(toInput(values)));
    } catch (error) {
      // A 400, or the 409 of a taken ordinal (field `ordinal`), shows under its field.
      applyServerError(form, error);
    }
  };

  const readOnly = !editable;
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Resource">
      <Stack gap="md" maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Name"
            description={editable ? 'Shown to the organizations that may use it.' : undefined}
            required={editable}
            readOnly={readOnly}
            {...form.getInputProps('resource_name')}
            maxLength={200}
          />
          <NumberInput
            label="Ordinal"
            description={editable ? 'Position in the gateway routes; empty for the next free one.' : undefined}
            readOnly={readOnly}
            {...form.getInputProps('ordinal')}
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
            {...form.getInputProps('resource_type')}
            allowDeselect={false}
          />
          <Select
            label="Access"
            description={editable ? 'Restricted: only organizations granted it may use it.' : undefined}
            data={ACCESS_OPTIONS}
            readOnly={readOnly}
            {...form.getInputProps('resource_access')}
            allowDeselect={false}
          />
          <TextInput
            label="Path pattern"
            description={editable ? 'As the gateway matches it, e.g. /packages/beta/**' : undefined}
            required={editable}
            readOnly={readOnly}
            {...form.getInputProps('path_pattern')}
            styles={MONOSPACE_INPUT}
            maxLength={500}
          />
          {/* Not shown to those who may not manage resources: the server sends them none (null). */}
          {resource && resource.location === null ? null : <TextInput
            label="Location"
            description={editable ? 'Absolute path on the server, e.g. /srv/packages/beta' : undefined}
            required={editable}
            readOnly={readOnly}
            {...form.getInputProps('location')}
            styles={MONOSPACE_INPUT}
            maxLength={1000}
          />}
        </SimpleGrid>
        <Textarea
          label="Description"
          readOnly={readOnly}
          {...form.getInputProps('description')}
          autosize
          minRows={3}
          maxLength={2000}
        />
        {editable || actions ? (
          <Group gap="sm">
            {editable ? (
              <Button type="submit" loading={form.submitting}>
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
