import { Badge, Tooltip } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useHealth } from '../../lib/session-queries';
import { TONE } from '../../theme';

/** The "Imported prices" badge's tooltip: 'Daily prices of 3 symbols come from imported price files: …'. */
export const importedPricesHint = (count: number) =>
  `Daily prices of ${count} ${count === 1 ? 'symbol come' : 'symbols come'} from imported price files (Administration → Data); their figures say "imported prices".`;

/**
 * Beside the brand: "Simulated market" when the installation runs on the simulated market, and
 * "Imported prices" when it has imported price files (api/health `imported_symbols`; docs/data-in-and-out.md).
 */
export function MarketBadges({ narrow }: { narrow: boolean }) {
  const health = useHealth();
  const simulated = health.data?.market_data === 'simulated';
  const imported = health.data?.imported_symbols ?? 0;
  const size = narrow ? 'xs' : 'sm';
  return (
    <>
      {simulated && (
        <Tooltip label="Prices, news and earnings come from a simulated market, not a live feed.">
          <Badge variant="light" color="yellow" radius="sm" size={size} style={{ flexShrink: 0 }}>
            Simulated market
          </Badge>
        </Tooltip>
      )}
      {imported > 0 && (
        <Tooltip label={importedPricesHint(imported)} multiline w={280}>
          {narrow ? (
            // A phone's top bar has no room for the words beside the user name: an icon, named.
            <Badge variant="light" color={TONE.info} radius="sm" size={size} px={4} role="img" aria-label="Imported prices" style={{ flexShrink: 0 }}>
              <IconFileImport size={12} aria-hidden style={{ display: 'block' }} />
            </Badge>
          ) : (
            <Badge variant="light" color={TONE.info} radius="sm" size={size} style={{ flexShrink: 0 }}>
              Imported prices
            </Badge>
          )}
        </Tooltip>
      )}
    </>
  );
}
