import { describe, expect, it } from 'vitest';
import { UploadSlots } from '../../../services/documents/upload-slots';

describe('upload slots (docstore.upload-concurrency)', () => {
  it('lets `limit` uploads stream at once; the next one waits until a slot is released', async () => {
    const slots = new UploadSlots(2);
    const a = await slots.acquire();
    await slots.acquire();
    let thirdStarted = false;
    const third = slots.acquire().then((release) => {
      thirdStarted = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(thirdStarted).toBe(false);
    expect(slots.inUse).toBe(2);
    a();
    await third;
    expect(thirdStarted).toBe(true);
    expect(slots.inUse).toBe(2);
  });

  it('releasing twice frees one slot only, and an idle pool goes back to zero', async () => {
    const slots = new UploadSlots(1);
    const r = await slots.acquire();
    r();
    r();
    expect(slots.inUse).toBe(0);
    const again = await slots.acquire();
    expect(slots.inUse).toBe(1);
    again();
    expect(slots.inUse).toBe(0);
  });
});
