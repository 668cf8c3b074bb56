// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

/** What a screen that scans the user's favorites says when there are none: where to add them. */
export function EmptyFavoritesHint() {
  return (
    <Text size="sm" c="dimmed" ta="center">
      Your favorites list is empty: add stocks on the{' '}
      <Anchor component={Link} to="/dashboard/symbollookup" inherit>
        WatchList
      </Anchor>{' '}
      first.
    </Text>
  );
}
