import { inject } from 'vitest';

export const TEMPLATE_DB = 'platform_test_template';

export interface S3Target {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    temporalAddress: string;
    s3: S3Target;
  }
}

export const servers = () => ({
  pgUrl: inject('pgUrl'),
  temporalAddress: inject('temporalAddress'),
  s3: inject('s3'),
});
