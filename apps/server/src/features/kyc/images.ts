// Checks and re-encodes an uploaded KYC photo (and a support chat image, with the chat's own codes).
// What holds: only JPEG/PNG/WebP by magic bytes, at most MAX_BYTES and MAX_PIXELS; the output is a
// fresh JPEG (sharp drops EXIF and other metadata).

import type { ErrorCode } from '@bourse/contract';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../http/app-error.ts';

export const MAX_BYTES = 5 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;
const ALLOWED = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** The codes a refusal carries: KYC's by default; another caller names its own. */
export type PhotoCodes = { tooLarge: ErrorCode; type: ErrorCode };
const KYC_CODES: PhotoCodes = { tooLarge: 'kyc_image_too_large', type: 'kyc_image_type' };

export async function cleanPhoto(input: string, codes: PhotoCodes = KYC_CODES): Promise<Buffer> {
  const raw = Buffer.from(input.replace(/^data:[^,]*,/, ''), 'base64');
  if (raw.length > MAX_BYTES) throw new AppError(codes.tooLarge);
  const type = await fileTypeFromBuffer(raw);
  if (!type || !ALLOWED.has(type.mime)) throw new AppError(codes.type);
  // The header's dimensions are checked before decoding, so a pixel bomb never gets decoded.
  const meta = await sharp(raw, { limitInputPixels: MAX_PIXELS })
    .metadata()
    .catch((error: unknown) => {
      throw new AppError(/pixel limit/.test(String(error)) ? codes.tooLarge : codes.type);
    });
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_PIXELS) throw new AppError(codes.tooLarge);
  try {
    return await sharp(raw, { limitInputPixels: MAX_PIXELS }).rotate().jpeg({ quality: 85 }).toBuffer();
  } catch (error) {
    throw new AppError(/pixel limit/.test(String(error)) ? codes.tooLarge : codes.type);
  }
}
