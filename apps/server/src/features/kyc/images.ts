// Checks and re-encodes an uploaded KYC photo. What holds: only JPEG/PNG/WebP by magic bytes, at most
// MAX_BYTES and MAX_PIXELS; the output is a fresh JPEG (sharp drops EXIF and other metadata).

import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../http/app-error.ts';

export const MAX_BYTES = 5 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;
const ALLOWED = new Set(['image/jpeg', 'image/png', 'image/webp']);

export async function cleanPhoto(input: string): Promise<Buffer> {
  const raw = Buffer.from(input.replace(/^data:[^,]*,/, ''), 'base64');
  if (raw.length > MAX_BYTES) throw new AppError('kyc_image_too_large');
  const type = await fileTypeFromBuffer(raw);
  if (!type || !ALLOWED.has(type.mime)) throw new AppError('kyc_image_type');
  // The header's dimensions are checked before decoding, so a pixel bomb never gets decoded.
  const meta = await sharp(raw, { limitInputPixels: MAX_PIXELS })
    .metadata()
    .catch((error: unknown) => {
      throw new AppError(/pixel limit/.test(String(error)) ? 'kyc_image_too_large' : 'kyc_image_type');
    });
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_PIXELS) throw new AppError('kyc_image_too_large');
  try {
    return await sharp(raw, { limitInputPixels: MAX_PIXELS }).rotate().jpeg({ quality: 85 }).toBuffer();
  } catch (error) {
    throw new AppError(/pixel limit/.test(String(error)) ? 'kyc_image_too_large' : 'kyc_image_type');
  }
}
