// The photo page's forms (src/pages/owner/spas/[id]/photos.astro): plain HTML
// posts, so they work without JavaScript. Upload is the one multipart form and
// the one route allowed a body larger than 64 KiB (LARGE_BODY_ROUTES in src/lib/front-routes.ts).
import { parseId } from '#lib/ids.ts';
import { invalid, malformed, ok, type Reason, type Result } from '#lib/result.ts';
import { MAX_UPLOAD_BYTES, PHOTO_TOO_LARGE } from './image-pipeline.ts';
import { refuse, type FormReader } from '../forms.ts';
import { MAX_BODY_BYTES, parseMultipart, readBodyBytes, readForm } from '../http.ts';
import { addPhoto, deletePhoto, movePhoto, setPhotoAlt, type PhotoResult } from './photos.ts';
import { refreshSocialCard } from './social-cards.ts';

/** A 10 MB photo and the form around it; the front's cap for this route is the same (LARGE_BODY_ROUTES in src/lib/front-routes.ts). */
export const UPLOAD_FORM_LIMIT = MAX_UPLOAD_BYTES + MAX_BODY_BYTES;

export const PHOTO_NOTICES = {
  uploaded: 'Photo uploaded. It appears on your public page with the next publish.',
  moved: 'Order saved.',
  cover: 'Cover photo set.',
  alt: 'Description saved.',
  deleted: 'Photo deleted.',
  'social-refreshed': 'Social card refreshed.',
} as const;
export type PhotoNotice = keyof typeof PHOTO_NOTICES;

/**
 * The notice to show; refused with the reason beside the field it is about
 * (`photo` for an upload, `alt` for a description, else the page as a whole)
 * and, for a description, the photo it belongs to (`details.photoId`).
 */
export type PhotoActionResult = Result<PhotoNotice, Reason, { photoId?: number }>;

const noPhoto = () => invalid({ photo: 'Choose a photo to upload.' }, 'Choose a photo to upload.');

function fromPhotoResult(result: PhotoResult, notice: PhotoNotice, field?: 'photo' | 'alt', photoId?: number): PhotoActionResult {
  if (result.ok) return ok(notice);
  return { ...result, fields: field ? { [field]: result.message } : {}, ...(photoId === undefined ? {} : { details: { photoId } }) };
}

/**
 * The photo page's reader for forms.ts's handleForm: an upload is multipart
 * and up to UPLOAD_FORM_LIMIT (its file kept); every other form is text.
 */
export const readPhotoForm: FormReader<FormData | URLSearchParams> = async (request) => {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    const form = await readForm(request, MAX_BODY_BYTES);
    return form ? { form } : refuse<never>(400, { _: 'That form did not arrive. Reload the page and try again.' });
  }
  const bytes = await readBodyBytes(request, UPLOAD_FORM_LIMIT).catch(() => null);
  if (!bytes) return refuse<never>(413, { photo: PHOTO_TOO_LARGE });
  const form = await parseMultipart(bytes, type);
  return form ? { form } : refuse<never>(400, { photo: 'The upload did not arrive whole. Try again.' });
};

export async function handlePhotoAction(form: FormData | URLSearchParams, spa: { id: number; name: string }): Promise<PhotoActionResult> {
  if (form instanceof FormData) {
    if (form.get('intent') !== 'upload') return malformed('Unknown action.');
    const file = form.get('photo');
    if (!(file instanceof File) || (file.size === 0 && file.name === '')) return noPhoto();
    const alt = form.get('alt');
    const result = await addPhoto(spa, new Uint8Array(await file.arrayBuffer()), typeof alt === 'string' ? alt : null);
    return fromPhotoResult(result, 'uploaded', 'photo');
  }
  const intent = form.get('intent');
  const photoId = parseId(form.get('photo'));
  switch (intent) {
    case 'move': {
      // The position form, the one way a photo moves (what dragging a photo submits too); the first place is the cover.
      const position = Number(form.get('position') ?? '');
      return fromPhotoResult(movePhoto(spa.id, photoId, { position }), position === 1 ? 'cover' : 'moved');
    }
    case 'alt':
      return fromPhotoResult(setPhotoAlt(spa.id, photoId, form.get('alt') ?? ''), 'alt', 'alt', photoId ?? undefined);
    case 'delete':
      return fromPhotoResult(deletePhoto(spa.id, photoId), 'deleted');
    case 'refresh-social': {
      // Whatever kept the card from coming, the page answers 422 with the refusal's words.
      const result = await refreshSocialCard(spa.id);
      return result.ok ? ok('social-refreshed') : invalid({}, result.message);
    }
    case 'upload':
      // An upload form that arrived url-encoded carries no file (a browser without multipart? a script).
      return noPhoto();
    default:
      return malformed('Unknown action.');
  }
}
