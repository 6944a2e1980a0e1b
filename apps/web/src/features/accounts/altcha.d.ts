// Types the altcha package leaves out: its translation modules (each only registers its strings).
declare module 'altcha/i18n/*';
