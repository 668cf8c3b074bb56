/**
 * Imported daily price files from the command line (issue 29; docs/data-in-and-out.md "Daily price
 * files"), for an installation without accounts or a folder of many files:
 *   npm run data -- import <files or folders…> [--symbol S] [--description D] [--exchange E] [--sector S] [--adjust-splits] [--dry-run]
 *   npm run data -- list
 *   npm run data -- remove <symbol>
 * The same checks and report as the admin's Data card. Uses DATA_DIR / DATABASE_URL like the server;
 * with the embedded database it connects to the running server, or starts it for the command.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { runCommand, withDatabase } from './command';
import { createAuditRepo } from '../features/admin/audit.repo';
import { createImportedPricesRepo } from '../features/data-import/imported-prices.repo';
import { createPriceImportService, type PriceImportRequest } from '../features/data-import/price-import.service';
import { formatCount as number, priceFiles, reportLines } from './data-report';
import { systemClock } from '../lib/clock';
import { createMarket, marketClock } from '../providers/market';

const DATA_USAGE = `Usage: npm run data -- <command>
  import <files or folders…>  check and import daily price files (CSV: Yahoo, Stooq, or any layout with a date and OHLC header);
                              a folder's .csv and .txt files are all imported, one transaction per file
      --symbol <S>            the symbol of a one-symbol file (default: from the file name, e.g. AAPL.csv, aapl.us.txt)
      --description <D>       the name shown for a symbol the source does not know
      --exchange <E>          its exchange (e.g. NASDAQ, NYSE, TSX)
      --sector <S>            its GICS sector
      --adjust-splits         adjust the bars before each possible split the Adj Close confirms
      --dry-run               check and report only: store nothing
  list                        the imported symbols: range, rows, last bar, source file
  remove <symbol>             remove an imported symbol and its bars`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      symbol: { type: 'string' },
      description: { type: 'string' },
      exchange: { type: 'string' },
      sector: { type: 'string' },
      'adjust-splits': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(DATA_USAGE);
    return 0;
  }
  const [command, ...args] = positionals;
  if (!['import', 'list', 'remove'].includes(command ?? '')) {
    console.error(`${command ? `Unknown command "${command}".` : 'A command is required.'}\n${DATA_USAGE}`);
    return 2;
  }
  if (command === 'import' && args.length === 0) {
    console.error(`import needs files or folders.\n${DATA_USAGE}`);
    return 2;
  }
  if (command === 'remove' && args.length !== 1) {
    console.error(`remove needs one symbol.\n${DATA_USAGE}`);
    return 2;
  }
  const files = command === 'import' ? await priceFiles(args).catch((error: NodeJS.ErrnoException) => error) : [];
  if (files instanceof Error) {
    console.error(`${files.code === 'ENOENT' ? `No such file or folder: ${files.path ?? ''}` : files.message}`);
    return 2;
  }
  if (command === 'import' && files.length === 0) {
    console.error('No .csv or .txt file found there.');
    return 2;
  }
  if (values.symbol && files.length > 1) {
    console.error('--symbol names the symbol of one file: give one file with it.');
    return 2;
  }

  return withDatabase(async (database) => {
    const repo = createImportedPricesRepo(database.db);
    const config = loadConfig();
    const clock = marketClock(config, systemClock);
    const service = createPriceImportService({ repo, market: createMarket(config, clock, undefined, repo), audit: createAuditRepo(database.db), now: () => new Date(), marketClock: clock });
    const actor = { name: 'command line' } as const;
    if (command === 'list') {
      const rows = await service.summaries();
      if (rows.length === 0) console.log('No imported prices.');
      for (const row of rows) console.log(`${row.symbol}\t${row.description}\t${row.exchange}\t${row.firstDay ?? '-'} → ${row.lastDay ?? '-'}\t${number(row.rows)} bars\tlast close ${row.lastClose ?? '-'}\t${row.sourceFile}`);
      return 0;
    }
    if (command === 'remove') {
      const symbol = args[0]!.trim().toUpperCase();
      if (!(await service.remove(symbol, actor))) {
        console.error(`${symbol} has no imported prices.`);
        return 1;
      }
      console.log(`Removed ${symbol}'s imported prices.`);
      return 0;
    }
    let refused = 0;
    for (const file of files) {
      const request: PriceImportRequest = {
        name: path.basename(file),
        symbol: values.symbol,
        listing: { description: values.description, exchange: values.exchange, sector: values.sector },
        adjustSplits: values['adjust-splits'] ? 'all' : undefined,
        dryRun: values['dry-run'] ?? false,
      };
      const report = await service.importFile(createReadStream(file, { highWaterMark: 256 * 1024 }), request, actor);
      if (!report.stored && !request.dryRun) refused += 1;
      console.log(reportLines(report).join('\n'));
    }
    if (files.length > 1) console.log(`${number(files.length - refused)} of ${number(files.length)} files ${values['dry-run'] ? 'checked' : 'imported'}.`);
    return refused > 0 ? 1 : 0;
  });
}

runCommand(main);
