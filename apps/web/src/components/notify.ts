import { notifications } from '@mantine/notifications';

/** The spec's alerts: success closes by itself, failures stay until dismissed (UI.md "Feedback"). */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'green', autoClose: 5000, withBorder: true });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: false, withBorder: true });
}

export function notifyInfo(message: string): void {
  notifications.show({ message, color: 'blue', autoClose: 6000, withBorder: true });
}
