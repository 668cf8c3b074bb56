/** Client-side form rules (spec §5), shared by the screens and their tests. */

export interface LoginFormErrors {
  email?: 'Email is required';
  password?: 'Password is required';
}

/** Login: e-mail and password are required; the screen shows these only after a submit attempt. */
export function validateLoginForm(values: { email: string; password: string }): LoginFormErrors {
  const errors: LoginFormErrors = {};
  if (values.email.trim() === '') errors.email = 'Email is required';
  if (values.password === '') errors.password = 'Password is required';
  return errors;
}

export const SUPPORT_FIELDS_REQUIRED_MESSAGE = 'Please fill out both the header and body fields.';

/** Support: header and body are both required (spec §5). */
export function isSupportFormComplete(values: { header: string; body: string }): boolean {
  return values.header.trim() !== '' && values.body.trim() !== '';
}
