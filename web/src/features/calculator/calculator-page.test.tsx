import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';

/** The figure shown next to a result's label. */
const result = (label: string) =>
  within(screen.getByRole('region', { name: 'Your results' })).getByText(label).nextElementSibling?.textContent;

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

async function renderCalculator() {
  renderApp('/calculator');
  await screen.findByRole('heading', { level: 1, name: 'ROI Calculator' });
}

describe('ROI calculator', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'Not found' }, 404)));
  });

  it('starts from the spec defaults and shows their results', async () => {
    await renderCalculator();

    expect({
      callsPerWeek: input('Calls per week').value,
      callsEvaluated: input('Calls evaluated per week').value,
      successfulCallsReviewed: input('Successful calls reviewed per week').value,
      unsuccessfulCallsReviewed: input('Unsuccessful calls reviewed per week').value,
      avgRevenuePerCall: input('Average revenue per call ($)').value,
      potentialDecreasePercent: input('Potential decrease in unsuccessful calls (%)').value,
      avgQATimePerCall: input('Average QA time per call (minutes)').value,
      qaLaborCostPerHour: input('QA labor cost per hour ($)').value,
    }).toEqual({
      callsPerWeek: '500',
      callsEvaluated: '70',
      successfulCallsReviewed: '100',
      unsuccessfulCallsReviewed: '330',
      avgRevenuePerCall: '30',
      potentialDecreasePercent: '10',
      avgQATimePerCall: '3',
      qaLaborCostPerHour: '35',
    });

    expect(result('Calls not reviewed today')).toBe('86%');
    expect(result('Potential revenue lost per week')).toBe('$990.00');
    expect(result('QA hours saved per week')).toBe('3.5 hours');
    expect(result('QA cost saved per week')).toBe('$122.50');
    expect(result('Estimated annual savings')).toBe('$57,850.00');
  });

  it('updates the results as the visitor types', async () => {
    await renderCalculator();

    type('Calls evaluated per week', '100');
    expect(result('Calls not reviewed today')).toBe('80%');
    expect(result('QA hours saved per week')).toBe('5 hours');
    expect(result('QA cost saved per week')).toBe('$175.00');
    expect(result('Estimated annual savings')).toBe('$60,580.00');

    type('Average revenue per call ($)', '45.5');
    expect(result('Potential revenue lost per week')).toBe('$1,501.50');

    type('Calls per week', '300');
    expect(result('Calls not reviewed today')).toBe('66.7%');
  });

  it('explains an empty or negative field and shows no NaN', async () => {
    await renderCalculator();

    type('Average revenue per call ($)', '');
    type('QA labor cost per hour ($)', '-5');

    expect(screen.getByText('Enter a number.')).toBeTruthy();
    expect(screen.getByText('Enter 0 or more.')).toBeTruthy();
    expect(input('Average revenue per call ($)').getAttribute('aria-invalid')).toBe('true');
    expect(input('Calls per week').getAttribute('aria-invalid')).toBeNull();
    expect(result('Potential revenue lost per week')).toBe('—');
    expect(result('QA cost saved per week')).toBe('—');
    expect(result('Estimated annual savings')).toBe('—');
    // Outputs that do not depend on the bad fields still show.
    expect(result('QA hours saved per week')).toBe('3.5 hours');
    expect(screen.getByRole('status').textContent).toBe('Correct the highlighted fields to see every result.');
    expect(document.body.textContent).not.toMatch(/NaN|Infinity/);
  });

  it('refuses zero calls per week instead of dividing by zero', async () => {
    await renderCalculator();

    type('Calls per week', '0');

    expect(screen.getByText('Calls per week must be more than 0.')).toBeTruthy();
    expect(result('Calls not reviewed today')).toBe('—');
    expect(result('Estimated annual savings')).toBe('$57,850.00');
    expect(document.body.textContent).not.toMatch(/NaN|Infinity/);
  });

  it('resets every field to its default', async () => {
    await renderCalculator();
    type('Calls per week', '0');
    type('Average QA time per call (minutes)', '10');

    fireEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));

    expect(input('Calls per week').value).toBe('500');
    expect(input('Average QA time per call (minutes)').value).toBe('3');
    expect(result('Estimated annual savings')).toBe('$57,850.00');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
