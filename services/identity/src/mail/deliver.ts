import { DomainError } from '@parlance/platform/errors';
import type { Logger } from '@parlance/platform/logger';
import { MailDeliveryError, type Mailer, type MailMessage } from '@parlance/platform/mail/mailer';

export const mailFailedMessage = (email: string) => `We could not send an e-mail to ${email} just now. Please try again in a few minutes.`;

/**
 * Sends, or fails with UNAVAILABLE and a sentence for the person; why it failed goes to the log
 * (the mailer's errors never hold credentials, and the message body is not logged).
 */
export async function deliver(mailer: Mailer, logger: Logger, message: MailMessage, purpose: string): Promise<void> {
  try {
    await mailer.send(message);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const reason = error instanceof MailDeliveryError ? error.reason : 'failed';
    logger.error({ err: error, purpose, reason }, 'e-mail could not be sent');
    throw new DomainError('unavailable', mailFailedMessage(message.to), { reason: 'mail-failed' });
  }
}
