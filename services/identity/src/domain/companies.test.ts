import { describe, expect, it } from 'vitest';
import { DEFAULT_DEPARTMENTS, departmentDisplayName, newCompanyDepartments } from './companies.js';

describe('companies', () => {
  it('gives a new company the departments sales, hr and support, in that order', () => {
    expect(newCompanyDepartments()).toEqual(['sales', 'hr', 'support']);
  });

  it('hands out a fresh list that cannot change the default', () => {
    newCompanyDepartments().push('legal');
    expect(newCompanyDepartments()).toEqual([...DEFAULT_DEPARTMENTS]);
  });

  it('shows sales, hr and support by their display names and other keys as given', () => {
    expect(departmentDisplayName('sales')).toBe('Sales');
    expect(departmentDisplayName('hr')).toBe('HR');
    expect(departmentDisplayName('support')).toBe('Customer Support');
    expect(departmentDisplayName('Field Engineering')).toBe('Field Engineering');
    expect(departmentDisplayName('toString')).toBe('toString');
  });
});
