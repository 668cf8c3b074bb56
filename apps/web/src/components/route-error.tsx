import { Alert, Button, Center, Stack } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown when a screen fails to load (e.g. its chunk after a new deployment): a message and a retry. */
export function RouteError() {
  const error = useRouteError();
  return (
    <Center mih="60vh" p="md">
      <Stack maw={520}>
        <Alert color="red" title="This screen could not be shown">
          {error instanceof Error ? error.message : 'Something went wrong while loading this screen.'}
        </Alert>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
