/** The address e-mails come from when EMAIL_FROM is not set; invitations name it as their organiser. */
export const DEFAULT_EMAIL_FROM = 'Agency API <no-reply@agency-api.local>';

/** The bare address of `Name <address>` (or of a bare address). */
export const addressOf = (from: string): string => /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
