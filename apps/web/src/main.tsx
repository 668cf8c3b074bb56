// First: schemas defined by the imports below must see it.
import './zod-jitless';
// Mantine's styles, split by route (mantine-styles.test.ts): its global styles, what the always-loaded
// code renders and every stylesheet another one builds on; each lazily loaded screen imports the rest.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Input.layer.css';
// SegmentedControl (the Channels card's Kind) builds on it.
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/CheckboxCard.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/notifications/styles.layer.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { registerServiceWorker } from './lib/push/register';
import { createRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

const router = createRouter();

const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React draws it in slices of a few milliseconds, yielding to the
// browser between them, instead of in one long task (issue 24: Lighthouse's total blocking time on
// /dashboard/main, measured on a phone's CPU).
startTransition(() =>
  root.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <Notifications position="top-right" limit={4} />
        <RouterProvider router={router} />
      </MantineProvider>
    </StrictMode>,
  ),
);

// Browser push's service worker (issue 27): it caches nothing and intercepts no request (public/sw.js).
void registerServiceWorker();
