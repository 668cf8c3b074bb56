import { parseUniverse } from './types';

/** Major cryptocurrencies, bare tickers priced in USD; volume in coins a day. */
export const CRYPTOS = parseUniverse(`
BTC|Bitcoin|X|||95000|0.03|0.5
ETH|Ethereum|X|||3400|0.6|0.65
XRP|XRP|X|||2.3|2500|0.8
SOL|Solana|X|||160|25|0.8
ADA|Cardano|X|||0.6|900|0.85
DOGE|Dogecoin|X|||0.18|6000|0.9
BNB|BNB|X|||900|1.5|0.5
TRX|TRON|X|||0.3|2500|0.55
LINK|Chainlink|X|||15|30|0.85
AVAX|Avalanche|X|||17|25|0.9
DOT|Polkadot|X|||3|120|0.9
LTC|Litecoin|X|||90|5|0.75
BCH|Bitcoin Cash|X|||480|1|0.75
XLM|Stellar|X|||0.28|900|0.85
SHIB|Shiba Inu|X|||0.00001|20000000|1
TON|Toncoin|X|||2|80|0.85
SUI|Sui|X|||2|300|1
UNI|Uniswap|X|||7|25|0.9
NEAR|NEAR Protocol|X|||2.5|100|0.95
APT|Aptos|X|||3|60|0.95
ATOM|Cosmos|X|||3.5|40|0.85
ETC|Ethereum Classic|X|||15|10|0.8
FIL|Filecoin|X|||2|60|0.95
HBAR|Hedera|X|||0.18|1500|0.9
`);
