/** modules/mail: the Mailer port and HTML escaping for mail bodies; adapters/mailer implements it. */
export * from './mailer.ts';
