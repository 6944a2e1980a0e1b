// Request schemas of the customer account calls (SPEC §5, §7): registration, sign-in, passwords,
// email, two-factor sign-in and sessions. Response shapes are described with them for the OpenAPI
// document and the clients.

import { z } from 'zod';
import {
  agreed,
  areaCode,
  checkConfirmation,
  checkPhone,
  email,
  loginPassword,
  optionalText,
  pin,
  text,
  totpCode,
} from './fields.ts';

export const registerBody = z
  .object({
    areaCode: areaCode(),
    phone: text(20),
    password: loginPassword(),
    confirmPassword: z.string({ error: 'field_required' }),
    inviteCode: optionalText(32),
    captchaId: text(64),
    /** The captcha widget's solution (ALTCHA's base64 payload). */
    captchaCode: text(2048),
    smsCode: optionalText(8),
    agree: agreed(),
  })
  .superRefine(checkPhone)
  .superRefine(checkConfirmation);

export const loginBody = z
  .object({
    areaCode: areaCode(),
    phone: text(20),
    /**
     * A password to check is taken as typed, control characters too (unlike a new one, loginPassword):
     * it is only hashed and compared, and one set before new passwords refused them must still sign in.
     */
    password: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(64),
    totpCode: optionalText(6),
  })
  .superRefine(checkPhone);

export const sendCodeBody = z
  .object({
    areaCode: areaCode(),
    phone: text(20),
    purpose: z.enum(['register', 'login', 'reset'], { error: 'field_invalid' }).default('register'),
  })
  .superRefine(checkPhone);

export const changePasswordBody = z
  .object({
    oldPassword: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(64),
    password: loginPassword(),
    confirmPassword: z.string({ error: 'field_required' }),
  })
  .superRefine(checkConfirmation);

export const setPinBody = z
  .object({
    password: pin(),
    confirmPassword: z.string({ error: 'field_required' }),
    loginPassword: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(64),
  })
  .superRefine(checkConfirmation);

export const updateEmailBody = z.object({
  email: email(),
  loginPassword: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(64),
});

export const totpEnableBody = z.object({ code: totpCode() });
export const totpDisableBody = z.object({
  code: totpCode(),
  loginPassword: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(64),
});
export const revokeSessionBody = z.object({ id: text(64) });

/** What a customer may change about themselves on /user/update: the name the app greets them by. */
export const NICKNAME_MAX = 30;
export const updateProfileBody = z.object({ nickname: text(NICKNAME_MAX) });

export const idStatus = z.enum(['none', 'pending', 'succ', 'fail']);

export const userView = z.object({
  id: z.number().int(),
  account: z.string(),
  status: z.number().int(),
  idStatus,
  hasTradePassword: z.boolean(),
  hasWithdrawPassword: z.boolean(),
  email: z.string().nullable(),
  totpEnabled: z.boolean(),
});
export type UserView = z.infer<typeof userView>;

/** /user/info: the signed-in customer's profile, the login-info user plus what the profile page shows. */
export const profileView = userView.extend({
  areaCode: z.string(),
  /** The national number, without the area code. */
  phone: z.string(),
  /** Empty until the customer sets one on /user/update. */
  nickname: z.string(),
  /** When the account was opened (epoch ms). */
  createdAt: z.number().int(),
});
export type ProfileView = z.infer<typeof profileView>;

export const loginResult = z.object({ token: z.string(), user: userView });
export type LoginResult = z.infer<typeof loginResult>;
export const loginInfo = z.object({
  user: userView,
  openAutoApply: z.number().int(),
  serviceSaleSmartly: z.string(),
});
export type LoginInfo = z.infer<typeof loginInfo>;

export const sessionView = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionView>;

/** A registration captcha: ALTCHA's proof-of-work challenge for the widget, and the id to send back with it. */
export const captchaView = z.object({
  captchaId: z.string(),
  challenge: z.object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      memoryCost: z.number().optional(),
      parallelism: z.number().optional(),
      expiresAt: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().optional(),
  }),
});
export type CaptchaView = z.infer<typeof captchaView>;

/** A new TOTP secret, shown once, with its otpauth:// address for authenticator apps' QR codes. */
export const totpSetupView = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetupView = z.infer<typeof totpSetupView>;

export const sendCodeResult = z.object({ sent: z.boolean(), resendAfterSec: z.number() });
export type SendCodeResult = z.infer<typeof sendCodeResult>;

/** Whether a deployment trades virtual money (paper) or real money (live). */
export const deploymentMode = z.enum(['paper', 'live']);
export type DeploymentMode = z.infer<typeof deploymentMode>;

export const deploymentProps = z.object({
  mode: deploymentMode,
  platformName: z.string(),
  defaultAreaCode: z.string(),
  inviteCodeRequired: z.boolean(),
  smsCodeRequired: z.boolean(),
  openAutoApply: z.number().int(),
  stockCountry: z.enum(['IN', 'US', 'BR']),
  /** The external chat widget's script (SERVICE_CHAT_URL), as in login info, for the signed-out support pages; "" when none. */
  serviceSaleSmartly: z.string(),
});
export type DeploymentProps = z.infer<typeof deploymentProps>;

// --- what the app sends (before the server's parsing) ---------------------------------------------

export type RegisterInput = z.input<typeof registerBody>;
export type LoginInput = z.input<typeof loginBody>;
export type SendCodeInput = z.input<typeof sendCodeBody>;
export type ChangePasswordInput = z.input<typeof changePasswordBody>;
export type SetPinInput = z.input<typeof setPinBody>;
export type UpdateEmailInput = z.input<typeof updateEmailBody>;
export type TotpEnableInput = z.input<typeof totpEnableBody>;
export type TotpDisableInput = z.input<typeof totpDisableBody>;
export type RevokeSessionInput = z.input<typeof revokeSessionBody>;
export type UpdateProfileInput = z.input<typeof updateProfileBody>;
