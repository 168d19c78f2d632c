import { describe, expect, it } from 'vitest';
import { formPathOf, sentence, serverFieldError } from './form-errors';

const organization = { organization_name: 'Contoso', parent_organization: null, website: '', domains: 'contoso.example, c0ntoso' };
const draft = { license_name: 'Lab', valid_from: '2026-03-05', days_valid: '', note: '' };
const bad = (field: string | undefined, message = `Invalid body field '${field}': not accepted.`) => ({
  status: 400,
  body: { message, severity: 'ERROR', ...(field === undefined ? {} : { field }) },
});

describe('formPathOf: the form field a server field names', () => {
  it('is the field of the same name, even when its value is null or empty', () => {
    expect(formPathOf('organization_name', organization)).toBe('organization_name');
    expect(formPathOf('parent_organization', organization)).toBe('parent_organization');
    expect(formPathOf('days_valid', draft)).toBe('days_valid');
  });

  it('is the list a form keeps as one text for an item of it (domains.3)', () => {
    expect(formPathOf('domains.3', organization)).toBe('domains');
  });

  it('is the item itself when the form has the list', () => {
    expect(formPathOf('domains.1', { domains: ['a.example', 'b.example'] })).toBe('domains.1');
    expect(formPathOf('domains.5', { domains: ['a.example', 'b.example'] })).toBe('domains');
  });

  it('follows the aliases of names the form calls otherwise', () => {
    expect(formPathOf('date_valid_from', draft, { date_valid_from: 'valid_from' })).toBe('valid_from');
    expect(formPathOf('groups.0', { upn: '', group: 'piston_export' }, { groups: 'group' })).toBe('group');
  });

  it('is null for a field the form does not have, also through an alias or the prototype', () => {
    expect(formPathOf('member_email', organization)).toBeNull();
    expect(formPathOf('today', draft, { date_valid_from: 'valid_from' })).toBeNull();
    expect(formPathOf('groups', { upn: '' }, { groups: 'group' })).toBeNull();
    expect(formPathOf('toString', organization)).toBeNull();
    expect(formPathOf('__proto__.x', organization)).toBeNull();
    expect(formPathOf('organization_name.length', organization)).toBe('organization_name');
  });
});

describe('serverFieldError: a 400 shown under its field', () => {
  it('gives the form path and the message as a sentence', () => {
    expect(serverFieldError(bad('domains.1', 'not a domain name: c0ntoso'), organization)).toEqual({ path: 'domains', message: 'Not a domain name: c0ntoso.' });
    expect(serverFieldError(bad('date_valid_from'), draft, { date_valid_from: 'valid_from' })).toEqual({
      path: 'valid_from',
      message: "Invalid body field 'date_valid_from': not accepted.",
    });
  });

  it('takes a 409 that names a field (a taken value) like a 400', () => {
    expect(serverFieldError({ ...bad('organization_name', 'An organization named Contoso already exists.'), status: 409 }, organization)).toEqual({
      path: 'organization_name',
      message: 'An organization named Contoso already exists.',
    });
  });

  it('is null (a toast) without a field, for a field the form lacks, and for other statuses', () => {
    expect(serverFieldError(bad(undefined, 'The body is empty.'), organization)).toBeNull();
    expect(serverFieldError(bad('secret'), organization)).toBeNull();
    expect(serverFieldError({ ...bad('organization_name'), status: 403 }, organization)).toBeNull();
    expect(serverFieldError({ status: 400, body: 'Bad Request' }, organization)).toBeNull();
    expect(serverFieldError({ status: 400, body: null }, organization)).toBeNull();
    expect(serverFieldError({ status: 400, body: { field: 'website' } }, organization)).toBeNull();
  });
});

describe('sentence', () => {
  it('capitalises and ends a fragment, and leaves a sentence as it is', () => {
    expect(sentence('at most 200 characters')).toBe('At most 200 characters.');
    expect(sentence('Parent organization not found.')).toBe('Parent organization not found.');
    expect(sentence('Really?')).toBe('Really?');
    expect(sentence('  ')).toBe('');
  });
});
