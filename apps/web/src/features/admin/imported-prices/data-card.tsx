import { AdminCard } from '../admin-card';
import { ImportedPricesTable } from './imported-prices-table';
import { PriceImportSection } from './price-import-section';

/**
 * Administration → Data (issue 29; docs/data-in-and-out.md "The Data card"): the imported daily price
 * files, each symbol removable, and the import of more: each file checked in a preview (a dry run)
 * before anything is stored.
 */
export function DataCard() {
  return (
    <AdminCard
      title="Data"
      description="Daily price files imported into this installation: Yahoo, Stooq, or any CSV with a date and open, high, low and close columns. Each file is checked before anything is stored; its symbols join the symbol search and the scans at once."
    >
      <ImportedPricesTable />
      <PriceImportSection />
    </AdminCard>
  );
}
