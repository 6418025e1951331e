/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The file fields of a hosted form (form-markup.ts draws them): each chosen file is uploaded at
// once, listed under the field's "Uploaded files" with a remove button, and its document id
// becomes the field's value. The native input is emptied after each choice, so it never claims a
// file beside the list (it is drawn as the "Choose…" button; its own text is not shown). Where the
// files go is the page's: the embed page's session routes, the respond page's recipient routes.
import type { FormSchema } from '../../../domain/forms/form-schema';
import type { SubmissionError } from '../../../domain/forms/submission';
import { problemOf } from './form-fields';

export interface Upload {
  id: string;
  name: string;
}

export interface UploadEndpoint {
  /** POST of one multipart part "file": 201 with `{ id, filename }`. */
  upload(body: FormData): Promise<Response>;
  /** DELETE of one upload: 200, or 404 / 409 `document-already-deleted` when it is already gone. */
  remove(id: string): Promise<Response>;
}

export interface FileUploads {
  /** The document ids of a file field. */
  filesOf(key: string): string[];
  /** Uploads still running. */
  pending(): number;
  /** Whether any field holds a file. */
  any(): boolean;
  /** Draws the inputs' lists and wires them; `changed` runs after every upload and removal, with the field's key. */
  wire(form: HTMLFormElement, showErrors: (errors: SubmissionError[]) => void, changed?: (key: string) => void): void;
  /** Files already held (a respond page reopened): by field key. */
  restore(files: Record<string, Upload[]>): void;
}

export function fileUploads(schema: FormSchema, endpoint: UploadEndpoint): FileUploads {
  const uploads = new Map<string, Upload[]>();
  const fileKeys = schema.fields.filter((f) => f.type === 'file').map((f) => f.key);
  let running = 0;
  let showErrors: (errors: SubmissionError[]) => void = () => {};
  let changed: (key: string) => void = () => {};

  const statusOf = (key: string) => document.getElementById(`f-${key}-status`)!;

  function render(key: string) {
    const list = document.getElementById(`f-${key}-files`);
    if (!list) return;
    const files = uploads.get(key) ?? [];
    list.replaceChildren(
      ...files.map((u) => {
        const li = document.createElement('li');
        const name = document.createElement('span');
        name.textContent = u.name;
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.className = 'link';
        remove.textContent = `Remove ${u.name}`;
        remove.addEventListener('click', () => void removeUpload(key, u.id));
        li.append(name, remove);
        return li;
      }),
    );
    document.getElementById(`f-${key}-files-label`)!.hidden = files.length === 0;
  }

  async function upload(key: string, file: File) {
    const status = statusOf(key);
    running++;
    status.textContent = `Uploading ${file.name}…`;
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const res = await endpoint.upload(body).catch(() => undefined);
      if (res?.status !== 201) {
        const why = res ? await problemOf(res) : 'the connection failed';
        showErrors([{ path: key, message: `${file.name} was not uploaded: ${why}` }]);
        status.textContent = '';
        return;
      }
      const doc = (await res.json()) as { id: string; filename: string };
      uploads.set(key, [...(uploads.get(key) ?? []), { id: doc.id, name: doc.filename }]);
      render(key);
      status.textContent = `${file.name} uploaded.`;
    } finally {
      running--;
    }
    changed(key);
  }

  async function removeUpload(key: string, id: string) {
    const res = await endpoint.remove(id).catch(() => undefined);
    const gone = res?.status === 409 && ((await res.clone().json().catch(() => ({}))) as { code?: string }).code === 'document-already-deleted';
    if (res?.status !== 200 && res?.status !== 404 && !gone) {
      showErrors([{ path: key, message: `The file was not removed: ${res ? await problemOf(res) : 'the connection failed'}` }]);
      return;
    }
    uploads.set(key, (uploads.get(key) ?? []).filter((u) => u.id !== id));
    render(key);
    statusOf(key).textContent = 'File removed.';
    // The list's button is gone with its item: focus goes back to the field's own control.
    document.getElementById(`f-${key}`)?.focus();
    changed(key);
  }

  return {
    filesOf: (key) => (uploads.get(key) ?? []).map((u) => u.id),
    pending: () => running,
    any: () => Array.from(uploads.values()).some((list) => list.length > 0),
    restore(files) {
      for (const key of fileKeys) {
        uploads.set(key, files[key] ?? []);
        render(key);
      }
    },
    wire(form, show, onChange) {
      showErrors = show;
      if (onChange) changed = onChange;
      for (const key of fileKeys) {
        const input = form.querySelector<HTMLInputElement>(`#f-${key}`);
        if (!input) continue;
        render(key);
        input.addEventListener('change', async () => {
          const files = Array.from(input.files ?? []);
          input.value = '';
          if (!files.length) return;
          const room = Number(input.dataset.maxItems) - (uploads.get(key)?.length ?? 0);
          if (files.length > room) {
            showErrors([{ path: key, message: `At most ${input.dataset.maxItems} files` }]);
            return;
          }
          for (const file of files) await upload(key, file);
        });
      }
    },
  };
}
