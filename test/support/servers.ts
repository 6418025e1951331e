import { inject } from 'vitest';

export const TEMPLATE_DB = 'platform_test_template';

export interface S3Target {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The run's SMTP catcher: send to `smtpUrl`, read what arrived at `webUrl` + `/messages.json`. */
export interface MailTarget {
  smtpUrl: string;
  webUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    temporalAddress: string;
    s3: S3Target;
    mail: MailTarget;
  }
}

export const servers = () => ({
  pgUrl: inject('pgUrl'),
  temporalAddress: inject('temporalAddress'),
  s3: inject('s3'),
  mail: inject('mail'),
});
