import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback that keeps the messages it accepts (STARTTLS off: smtp-server's
 * built-in certificate has expired). Set `state.refuse` to make the next messages fail with a
 * temporary error (`refusal`, default 451), like a mail server in trouble; `state.refused` counts them.
 * Set `state.hang` to make the next connections wait forever for the server's greeting (a server
 * that stops answering); `state.hung` counts them.
 */
export function startRefusingSmtp(refusal: { code: number; message: string } = { code: 451, message: 'Mailbox busy, try later' }) {
  const received: ParsedMail[] = [];
  const state = { refuse: 0, refused: 0, hang: 0, hung: 0 };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    onConnect(_session, cb) {
      if (state.hang > 0) {
        state.hang -= 1;
        state.hung += 1;
        return; // No greeting, ever: the client's timeout ends it.
      }
      cb();
    },
    onData(stream, _session, cb) {
      if (state.refuse > 0) {
        state.refuse -= 1;
        state.refused += 1;
        stream.resume();
        stream.on('end', () => cb(Object.assign(new Error(refusal.message), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          cb();
        })
        .catch(cb);
    },
  });
  return new Promise<{ port: number; received: ParsedMail[]; state: typeof state; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        received,
        state,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
