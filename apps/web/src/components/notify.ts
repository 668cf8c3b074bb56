import { notifications } from '@mantine/notifications';

/** Every notification's × has an accessible name (docs/ui.md "Accessibility"). */
const closeButtonProps = { 'aria-label': 'Dismiss notification' };

/** The spec's alerts: success closes by itself, failures stay until dismissed (docs/ui.md "Feedback"). */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'green', autoClose: 5000, withBorder: true, closeButtonProps });
}

/** A failure; with a `title` (the spec's alert) the message under it says why (e.g. the server's msg). */
export function notifyError(message: string, title?: string): void {
  notifications.show({ ...(title ? { title } : {}), message, color: 'red', autoClose: false, withBorder: true, closeButtonProps });
}

export function notifyInfo(message: string): void {
  notifications.show({ message, color: 'blue', autoClose: 6000, withBorder: true, closeButtonProps });
}
