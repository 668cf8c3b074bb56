import { Button, Menu } from '@mantine/core';
import { watchlistCsv, watchlistTradingViewText } from '@signalboard/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError } from '../../components/notify';
import { messageOf } from '../../lib/client';
import { downloadCsv, downloadText } from '../../lib/download';
import { getWatchlistExport } from './api/export-watchlist';

type ExportFormat = 'csv' | 'tradingview';

/** "Export": the saved favourites as CSV (symbol, description, exchange) or as a TradingView list. */
export function ExportMenu(props: { disabled: boolean }) {
  const [busy, setBusy] = useState(false);

  async function download(format: ExportFormat) {
    setBusy(true);
    try {
      const { stocks } = await getWatchlistExport();
      const now = new Date();
      const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
      if (format === 'csv') downloadCsv(`watchlist-${day}.csv`, watchlistCsv(stocks));
      else downloadText(`watchlist-${day}-tradingview.txt`, watchlistTradingViewText(stocks));
    } catch (error) {
      notifyError(messageOf(error), 'The favorites could not be exported');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} rightSection={<IconChevronDown size={14} aria-hidden />} loading={busy} disabled={props.disabled}>
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Your saved favorites</Menu.Label>
        <Menu.Item onClick={() => void download('csv')}>CSV (symbol, description, exchange)</Menu.Item>
        <Menu.Item onClick={() => void download('tradingview')}>TradingView list</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
