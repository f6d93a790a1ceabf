/**
 * The journeys of issue 5 in Chromium against the standalone product, nothing faked: a new
 * company's admin signs up, reads the verification e-mail the product captured, verifies, builds
 * a team, duplicates it and deletes the copy; invites a manager, who accepts, signs up and finds
 * that a manager cannot manage members. Every screen passed is saved in .run/screenshots.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLink } from './support/captured-mail.js';
import { explainFailures, horizontalOverflow, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';

let product: StandaloneBrowser;
explainFailures(() => product);
const run = randomUUID().slice(0, 8);
const admin = { firstName: 'Maren', lastName: 'Okafor', email: `owner-${run}@example.com`, password: 'Quarterly-review-lantern-9' };
const manager = { firstName: 'Tomas', lastName: 'Iversen', email: `coach-${run}@example.com`, password: 'Harbour-signal-kettle-47' };

beforeAll(async () => {
  product = await startStandaloneBrowser();
}, 120_000);

afterAll(async () => {
  await product?.stop();
});

/** Signs up through the login page, then follows the captured verification link; ends signed in. */
async function signUpAndVerify(page: Page, person: typeof admin, shotPrefix: string, prefilled = false) {
  if (!prefilled) await page.goto(`${product.base}/login?mode=signup`);
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  if (prefilled) expect(await page.getByLabel('Email').inputValue()).toBe(person.email);
  else await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await product.screenshot(page, `${shotPrefix}-signup-filled`);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL(/\/auth\/email-sent\?email=/);
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await product.screenshot(page, `${shotPrefix}-email-sent`);

  const link = await capturedLink(product.dataDir, person.email, 'verify');
  expect(link.startsWith(`${product.base}/auth/verify-email?token=`)).toBe(true);
  await page.goto(link);
  await page.getByRole('heading', { name: 'E-mail verified' }).waitFor();
  await product.screenshot(page, `${shotPrefix}-email-verified`);
  // It moves on by itself after 3 seconds.
  await page.waitForURL(`${product.base}/dashboard`, { timeout: 10_000 });
}

describe('issue 5 journeys in Chromium', () => {
  let adminPage: Page;
  let adminProblems: string[];

  it('signs up a new company admin, who verifies the e-mail from the captured message and is signed in', async () => {
    const opened = await product.open(WIDTHS.desktop);
    adminPage = opened.page;
    adminProblems = opened.problems;
    await signUpAndVerify(adminPage, admin, 'journey-admin');
    await adminPage.getByRole('button', { name: `${admin.firstName} ${admin.lastName}` }).waitFor();
    await product.screenshot(adminPage, 'journey-admin-dashboard');
    expect(await adminPage.evaluate("localStorage.getItem('is-authenticated')")).toBe('true');
  }, 60_000);

  it('creates a team with members and weighted criteria, duplicates it and deletes the copy', async () => {
    const page = adminPage;
    const teamName = `Inbound Sales ${run}`;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('heading', { name: 'Team Management' }).waitFor();
    await page.getByText('No teams found for this department. Click "Add Team" to create one.').waitFor();
    await product.screenshot(page, 'journey-teams-empty');

    await page.getByRole('link', { name: 'Add Team' }).click();
    await page.waitForURL(`${product.base}/teams/new`);
    await page.getByLabel('Team name').fill(teamName);

    await page.getByRole('tab', { name: /Team Members/ }).click();
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.getByLabel('First name, member 1').fill('Priya');
    await page.getByLabel('Last name, member 1').fill('Raman');
    await page.getByLabel('Email, member 1').fill(`priya-${run}@example.com`);
    await page.getByLabel('Daily target, member 1').fill('12');
    await page.getByLabel('Daily target, member 1').press('Tab');
    await page.getByText('Daily target (all members):').getByText('12').waitFor();
    await product.screenshot(page, 'journey-team-editor-members');

    await page.getByRole('tab', { name: /Evaluation Criteria/ }).click();
    await page.getByRole('button', { name: 'Add Your First Group' }).click();
    await page.getByLabel(/^Group name/).fill('Opening');
    const saveTeam = page.getByRole('button', { name: 'Save Team' });
    await page.getByLabel(/^Criterion name/).first().fill('Greeting');
    // Weights are typed as text and count once committed: a comma decimal, then Tab.
    await page.getByLabel(/^Weight/).first().fill('6,5');
    await page.getByLabel(/^Weight/).first().press('Tab');
    await page.getByLabel(/^Description/).first().fill('The representative greets the customer by name and states the purpose of the call.');
    expect(await saveTeam.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Add Criterion to group 1' }).click();
    await page.getByLabel(/^Criterion name/).nth(1).fill('Needs discovery');
    await page.getByLabel(/^Weight/).nth(1).fill('3.5');
    await page.getByLabel(/^Weight/).nth(1).press('Enter');
    await page.getByRole('progressbar', { name: 'Criteria weight' }).and(page.locator('[aria-valuenow="10"]')).waitFor();
    // The offline suggestion engine writes the description; approving keeps it.
    await page.getByRole('button', { name: 'AI Suggestion' }).nth(1).click();
    await page.getByText('AI Suggestion - Approve or Decline').waitFor();
    await product.screenshot(page, 'journey-team-editor-suggestion');
    await page.getByRole('button', { name: 'Approve' }).click();
    expect((await page.getByLabel(/^Description/).nth(1).inputValue()).length).toBeGreaterThan(20);
    await page.getByLabel('Determine the success of the activity').fill('The customer agrees to a follow-up meeting with a date.');
    await product.screenshot(page, 'journey-team-editor-criteria');

    await page.getByRole('tab', { name: /Call Script/ }).click();
    await page.getByLabel('Call script template').fill('Thank you for calling. This call is recorded for quality and training purposes. May I have your name?');
    await product.screenshot(page, 'journey-team-editor-script');
    expect(await saveTeam.isDisabled()).toBe(false);
    await saveTeam.click();
    await page.waitForURL(`${product.base}/teams`);

    const original = page.getByRole('button', { name: teamName, exact: true });
    await original.click();
    await page.getByRole('region', { name: 'Opening' }).getByText('Needs discovery').waitFor();
    await page.getByText('Priya Raman').waitFor();
    await product.screenshot(page, 'journey-teams-list-expanded');

    await page.getByRole('button', { name: `Duplicate ${teamName}` }).click();
    const copy = page.getByRole('button', { name: `${teamName} (copy)`, exact: true });
    await copy.waitFor();
    await product.screenshot(page, 'journey-teams-duplicated');

    await page.getByRole('button', { name: `Remove ${teamName} (copy)` }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await dialog.getByText(`Are you sure you want to delete the team "${teamName} (copy)"? This action cannot be undone.`).waitFor();
    await product.screenshot(page, 'journey-teams-confirm-deletion');
    await dialog.getByRole('button', { name: 'Delete Team' }).click();
    await copy.waitFor({ state: 'detached' });
    await dialog.waitFor({ state: 'detached' });
    expect(await original.count()).toBe(1);

    // The server agrees: one team left, with its member; the copy had none and is gone.
    const teams = await page.evaluate(async () => (await (await fetch('/api/teams/fetch/?department=sales')).json()) as Array<{ name: string; members: string[] }>);
    expect(teams.map((team) => [team.name, team.members.length])).toEqual([[teamName, 1]]);
    await product.screenshot(page, 'journey-teams-after-delete');
    expect(adminProblems).toEqual([]);
  }, 90_000);

  it('shows every settings tab to the admin', async () => {
    for (const tab of ['profile', 'notifications', 'security', 'billing', 'members', 'audit-log']) {
      await adminPage.goto(`${product.base}/settings?tab=${tab}`);
      await adminPage.getByRole('tabpanel').waitFor();
      await adminPage.waitForLoadState('networkidle');
      await product.screenshot(adminPage, `journey-settings-${tab}`);
    }
    await adminPage.goto(`${product.base}/settings?tab=members`);
    await adminPage.getByRole('list', { name: 'Company members' }).getByText(admin.email).waitFor();
    expect(await adminPage.getByRole('button', { name: 'Upgrade to Enterprise' }).count()).toBe(0);
    await adminPage.goto(`${product.base}/settings?tab=audit-log`);
    await adminPage.getByRole('button', { name: 'Upgrade to Enterprise' }).waitFor();
  }, 60_000);

  it('invites a manager, who accepts from the e-mail, signs up and cannot manage members', async () => {
    await adminPage.goto(`${product.base}/settings?tab=members`);
    const invite = adminPage.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email address').fill('not-an-address');
    await invite.getByText('Please enter a valid email address').waitFor();
    expect(await invite.getByRole('button', { name: 'Send Invitation' }).isDisabled()).toBe(true);
    await invite.getByLabel('Email address').fill(manager.email);
    await invite.getByLabel('Role').selectOption('manager');
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await adminPage.getByText(`Invitation sent to ${manager.email}`).waitFor();
    await product.screenshot(adminPage, 'journey-invitation-sent');
    // Toasts vanish after 3 seconds.
    await adminPage.getByText(`Invitation sent to ${manager.email}`).waitFor({ state: 'detached', timeout: 6_000 });
    expect(adminProblems).toEqual([]);

    const { context, page, problems } = await product.open(WIDTHS.tablet);
    const link = await capturedLink(product.dataDir, manager.email, 'accept');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Invitation accepted' }).waitFor();
    await product.screenshot(page, 'journey-manager-invitation-accepted');
    await page.getByRole('link', { name: 'Create your account' }).click();
    await page.waitForURL(/\/login\?mode=signup/);
    await signUpAndVerify(page, manager, 'journey-manager', true);

    await page.goto(`${product.base}/settings?tab=members`);
    await page.getByText('Members management is only available for Admin users').waitFor();
    const members = page.getByRole('list', { name: 'Company members' });
    await members.getByText(admin.email).waitFor();
    await members.getByText(manager.email).waitFor();
    for (const edit of await members.getByRole('button', { name: /^Edit / }).all()) expect(await edit.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send Invitation' }).isDisabled()).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    await product.screenshot(page, 'journey-manager-members-locked');

    // The gateway refuses too: a manager's invitation is answered 403 whatever the page shows.
    const refused = await page.evaluate(async () => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as { csrfToken: string };
      const response = await fetch('/api/auth/invite', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ email: 'someone-else@example.com', role: 'manager' }),
      });
      return response.status;
    });
    expect(refused).toBe(403);
    expect(problems.filter((problem) => !problem.includes('403'))).toEqual([]);
    await context.close();
  }, 90_000);
  for (const width of [WIDTHS.phone, WIDTHS.tablet]) {
    it(`at ${width} px the admin signs in from the keyboard and every signed-in screen fits the window`, async () => {
      const { context, page, problems } = await product.open(width);
      await page.goto(`${product.base}/login`);
      await page.getByLabel('Email').focus();
      await page.keyboard.type(admin.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(admin.password);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${product.base}/dashboard`);

      await page.goto(`${product.base}/teams`);
      const toggle = page.getByRole('button', { name: `Inbound Sales ${run}`, exact: true });
      await toggle.focus();
      await page.keyboard.press('Enter');
      await page.getByText('Priya Raman').waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await product.screenshot(page, `journey-teams-list-${width}`);

      await page.getByRole('link', { name: `Edit Inbound Sales ${run}` }).click();
      await page.getByRole('heading', { name: 'Edit Team' }).waitFor();
      for (const tab of ['Team Members', 'Evaluation Criteria', 'Call Script']) {
        await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        await page.getByRole('tabpanel').waitFor();
        expect({ tab, overflow: await horizontalOverflow(page) }).toEqual({ tab, overflow: 0 });
        await product.screenshot(page, `journey-team-editor-${tab.replace(/ /g, '-').toLowerCase()}-${width}`);
      }
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${product.base}/teams`);

      for (const tab of ['profile', 'notifications', 'security', 'billing', 'members', 'audit-log']) {
        await page.goto(`${product.base}/settings?tab=${tab}`);
        await page.getByRole('tabpanel').waitFor();
        await page.waitForLoadState('networkidle');
        expect({ tab, overflow: await horizontalOverflow(page) }).toEqual({ tab, overflow: 0 });
        await product.screenshot(page, `journey-settings-${tab}-${width}`);
      }
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
