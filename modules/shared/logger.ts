import pino, { type Logger } from 'pino';

/** Paths pino removes from every log line: credentials, tokens, cookies. */
export const REDACT_PATHS = [
  'password',
  'confirmPassword',
  'hashedPassword',
  'token',
  'credential',
  'accessToken',
  'refreshToken',
  'squareAccessToken',
  'squareRefreshToken',
  '*.password',
  '*.confirmPassword',
  '*.hashedPassword',
  '*.token',
  '*.credential',
  '*.accessToken',
  '*.refreshToken',
  '*.squareAccessToken',
  '*.squareRefreshToken',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/** The one logger factory for the server, the workers and the CLI. */
export function createLogger(options: { level: string; pretty?: boolean; name?: string; destination?: pino.DestinationStream }): Logger {
  const base = {
    level: options.level,
    name: options.name,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } });
  }
  return pino(base);
}
