/**
 * Bounds how many uploads stream to S3 at once on this node. An upload whose first part streams
 * (it came with a Content-Length) holds a few hundred KiB; one that goes through lib-storage
 * (chunked, or under 5 MiB) up to about four 5 MiB part buffers (the one filling, its copy, two in
 * flight). The limit bounds a node's upload memory to at most ~20 MiB × `docstore.upload-concurrency`,
 * whatever the load. Waiting uploads are not read (TCP back-pressure holds their bodies at the client).
 */
export class UploadSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else this.active--;
    };
  }

  get inUse() {
    return this.active;
  }
}
