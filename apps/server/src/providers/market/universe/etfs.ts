import { parseUniverse } from './types';

/** Index and sector ETFs (no GICS sector of their own). */
export const ETFS = parseUniverse(`
SPY|SPDR S&P 500 ETF Trust|A|||670|70|0.16
QQQ|Invesco QQQ Trust|Q|||600|45|0.22
DIA|SPDR Dow Jones Industrial Average ETF Trust|A|||470|4|0.15
IWM|iShares Russell 2000 ETF|A|||245|35|0.24
VTI|Vanguard Total Stock Market ETF|A|||330|4|0.16
VOO|Vanguard S&P 500 ETF|A|||615|7|0.16
XLK|Technology Select Sector SPDR Fund|A|||285|8|0.25
XLF|Financial Select Sector SPDR Fund|A|||53|40|0.2
XLE|Energy Select Sector SPDR Fund|A|||90|15|0.24
XLV|Health Care Select Sector SPDR Fund|A|||145|9|0.16
XLY|Consumer Discretionary Select Sector SPDR Fund|A|||235|5|0.22
XLP|Consumer Staples Select Sector SPDR Fund|A|||78|10|0.13
XLI|Industrial Select Sector SPDR Fund|A|||150|9|0.18
XLB|Materials Select Sector SPDR Fund|A|||88|5|0.18
XLU|Utilities Select Sector SPDR Fund|A|||85|12|0.16
XLRE|Real Estate Select Sector SPDR Fund|A|||42|6|0.2
XLC|Communication Services Select Sector SPDR Fund|A|||115|5|0.2
GLD|SPDR Gold Shares|A|||380|10|0.18
TLT|iShares 20+ Year Treasury Bond ETF|Q|||89|35|0.14
SMH|VanEck Semiconductor ETF|Q|||330|8|0.35
ARKK|ARK Innovation ETF|A|||80|12|0.45
`);
