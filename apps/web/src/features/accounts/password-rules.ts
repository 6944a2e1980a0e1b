// Form rules for login passwords (SPEC §5: 6 to 20 characters, the two entries must match), shared by
// registration and the security page.

type T = (key: string) => string;

export const passwordLengthMin = 6;
export const passwordLengthMax = 20;

export function passwordRules(t: T) {
  return [
    { required: true, message: t('auth.errors.passwordRequired') },
    {
      validator: async (_: unknown, value: string | undefined) => {
        if (value && (value.length < passwordLengthMin || value.length > passwordLengthMax)) {
          throw new Error(t('auth.errors.passwordLength'));
        }
      },
    },
  ];
}

/** The repeat of the `password` field. */
export function confirmPasswordRules(t: T) {
  return [
    { required: true, message: t('auth.errors.passwordRequired') },
    ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
      validator: async (_: unknown, value: string | undefined) => {
        if (value && value !== getFieldValue('password')) throw new Error(t('auth.errors.passwordMismatch'));
      },
    }),
  ];
}
