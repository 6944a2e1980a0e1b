// KYC request and answer shapes (SPEC §3 KYC fields, §4 idStatus). Photos travel as base64 data
// (a data: URL or bare base64); the server checks and re-encodes them, never trusting their type.

import { z } from 'zod';
import { idStatus } from './accounts.ts';
import { actionReason } from './staff.ts';

export const kycDocType = z.enum(['id_card', 'driving_licence', 'passport']);

const photo = z.string().min(1).max(8_000_000);

export const kycSubmitBody = z.object({
  docType: kycDocType,
  fullName: z.string().trim().min(2).max(100),
  docNumber: z.string().trim().min(3).max(40),
  front: photo,
  back: photo,
});
export type KycSubmitBody = z.infer<typeof kycSubmitBody>;

export const kycView = z.object({
  idStatus,
  reason: z.string(),
  submission: z
    .object({
      id: z.number().int(),
      docType: kycDocType,
      fullName: z.string(),
      docNumber: z.string(),
      createdAt: z.number(),
    })
    .nullable(),
});
export type KycView = z.infer<typeof kycView>;

export const kycReviewItem = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  docType: kycDocType,
  fullName: z.string(),
  docNumber: z.string(),
  status: idStatus,
  createdAt: z.number(),
});
export type KycReviewItem = z.infer<typeof kycReviewItem>;

/** A compliance decision on a pending submission. */
export const kycDecisionBody = z.object({
  decision: z.enum(['approve', 'reject']),
  // Approvals carry a written reason too: every staff action's audit row says why.
  reason: actionReason(),
});
export type KycDecisionInput = z.infer<typeof kycDecisionBody>;
