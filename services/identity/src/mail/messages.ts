/**
 * The e-mails identity sends. Each link carries a bearer token, so it appears in the body (that is
 * the point) and in `links` under a purpose name (for the development capture log), never under a
 * key the logger would have to redact.
 */
import { escapeHtml } from '@parlance/platform/mail/escape-html';
import type { MailMessage } from '@parlance/platform/mail/mailer';

const PRODUCT = 'Parlance';

function html(paragraphs: string[], link: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
${body}
<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="color:#555;font-size:13px">If the button does not work, copy this address into your browser:<br>${escapeHtml(link.href)}</p>
</body></html>`;
}

/** `${publicUrl}/auth/verify-email?token=…`, the page of the web app that runs the verification. */
export function verificationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
}

export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/auth/accept-invite?token=${encodeURIComponent(token)}`;
}

export function verificationMail(input: { to: string; firstName: string; link: string }): MailMessage {
  const lines = [
    `Hello ${input.firstName},`,
    `Welcome to ${PRODUCT}. Please confirm your e-mail address to finish creating your account.`,
    'The link works once and expires in 24 hours. If you did not sign up, you can ignore this e-mail.',
  ];
  return {
    to: input.to,
    subject: `Confirm your e-mail address for ${PRODUCT}`,
    text: `${lines.join('\n\n')}\n\nConfirm your address: ${input.link}\n`,
    html: html(lines, { href: input.link, label: 'Confirm e-mail address' }),
    links: { verify: input.link },
  };
}

/** Sent instead of a verification link when the address already has a verified account. */
export function alreadyRegisteredMail(input: { to: string; firstName: string; loginLink: string }): MailMessage {
  const lines = [
    `Hello ${input.firstName},`,
    `Someone, probably you, tried to create a ${PRODUCT} account with this e-mail address, which already has one.`,
    'Sign in with your password or with Google instead. If it was not you, no action is needed: nothing has changed.',
  ];
  return {
    to: input.to,
    subject: `You already have a ${PRODUCT} account`,
    text: `${lines.join('\n\n')}\n\nSign in: ${input.loginLink}\n`,
    html: html(lines, { href: input.loginLink, label: 'Sign in' }),
    links: { login: input.loginLink },
  };
}

export function invitationMail(input: { to: string; inviterName: string; companyName: string; role: string; link: string }): MailMessage {
  const role = input.role === 'admin' ? 'an Admin (full administrative access)' : 'a Manager (can view and edit content)';
  const lines = [
    'Hello,',
    `${input.inviterName} invited you to join ${input.companyName} on ${PRODUCT} as ${role}.`,
    'The invitation works once and expires in 7 days. If you do not have an account yet, you will be asked to create one with this e-mail address.',
  ];
  return {
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.companyName} on ${PRODUCT}`,
    text: `${lines.join('\n\n')}\n\nAccept the invitation: ${input.link}\n`,
    html: html(lines, { href: input.link, label: 'Accept invitation' }),
    links: { accept: input.link },
  };
}
