/** Reading the local mailbox's MIME files as a mail client would: the attachments, decoded. */
export interface ReadAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export function attachmentsOf(mail: string): ReadAttachment[] {
  const boundary = /^Content-Type: multipart\/mixed; boundary="([^"]+)"$/m.exec(mail)?.[1];
  if (!boundary) return [];
  return mail
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((section) => section.replace(/^\r?\n/, ''))
    .filter((section) => /^Content-Disposition: attachment/m.test(section))
    .map((section) => {
      const [head, body] = section.split(/\r?\n\r?\n/, 2) as [string, string];
      return {
        filename: /filename="([^"]+)"/.exec(head)![1]!,
        contentType: /^Content-Type: (.+)$/m.exec(head)![1]!.replace(/; name="[^"]*"$/, ''),
        content: Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'),
      };
    });
}

/** The plain-text body of a mail (the first text/plain part of a multipart one). */
export function textOf(mail: string): string {
  const sections = mail.split(/\r?\n\r?\n/);
  const boundary = /boundary="([^"]+)"/.exec(mail)?.[1];
  if (!boundary) return sections.slice(1).join('\n\n');
  const part = mail.split(`--${boundary}`)[1]!;
  return part.slice(part.search(/\r?\n\r?\n/)).trim();
}
