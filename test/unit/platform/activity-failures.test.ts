import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { toActivityFailure } from '../../../activities/failures';
import { AppError } from '../../../domain/errors';

describe('toActivityFailure', () => {
  it('a 4xx AppError is a non-retryable ApplicationFailure typed with its code, the status in its details', () => {
    const failure = toActivityFailure(new AppError('calendar-not-found', 'Calendar X was not found'));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'calendar-not-found', message: 'Calendar X was not found', nonRetryable: true });
    expect((failure as ApplicationFailure).details).toEqual([{ code: 'calendar-not-found', status: 404 }]);
  });

  it('keeps the extra fields (field paths of a validation failure) in its details', () => {
    const failure = toActivityFailure(new AppError('validation-failed', 'bad', { errors: [{ path: 'json.x', message: 'no' }] }));
    expect((failure as ApplicationFailure).details).toEqual([
      { errors: [{ path: 'json.x', message: 'no' }], code: 'validation-failed', status: 400 },
    ]);
  });

  it('a 5xx AppError (a dependency in trouble) is retryable', () => {
    const failure = toActivityFailure(new AppError('provider-timeout', 'slow'));
    expect(failure).toMatchObject({ type: 'provider-timeout', nonRetryable: false });
  });

  it('anything else passes through unchanged, so Temporal retries it', () => {
    const err = new Error('connection reset');
    expect(toActivityFailure(err)).toBe(err);
  });
});
