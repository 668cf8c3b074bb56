import { parseUniverse } from './types';

/** S&P 500 companies, part 2: Financials, Health Care, Consumer Staples. */
export const US_STOCKS_B = parseUniverse(`
BRK.B|Berkshire Hathaway Inc. Class B|N|FN|Multi-Sector Holdings|490|4|0.16
JPM|JPMorgan Chase & Co.|N|FN|Banks|300|9|0.24
V|Visa Inc.|N|FN|Transaction & Payment Services|340|7|0.2
MA|Mastercard Incorporated|N|FN|Transaction & Payment Services|560|3|0.21
BAC|Bank of America Corporation|N|FN|Banks|50|35|0.27
WFC|Wells Fargo & Company|N|FN|Banks|82|15|0.28
GS|The Goldman Sachs Group, Inc.|N|FN|Capital Markets|770|2|0.3
MS|Morgan Stanley|N|FN|Capital Markets|155|6|0.3
C|Citigroup Inc.|N|FN|Banks|98|14|0.3
AXP|American Express Company|N|FN|Consumer Finance|350|3|0.28
SCHW|The Charles Schwab Corporation|N|FN|Capital Markets|93|8|0.28
BLK|BlackRock, Inc.|N|FN|Asset Management|1100|0.7|0.25
SPGI|S&P Global Inc.|N|FN|Financial Data|500|1.5|0.2
PGR|The Progressive Corporation|N|FN|Property & Casualty Insurance|240|3|0.24
CB|Chubb Limited|N|FN|Property & Casualty Insurance|290|1.8|0.2
MMC|Marsh & McLennan Companies, Inc.|N|FN|Insurance Brokers|185|2.5|0.18
BX|Blackstone Inc.|N|FN|Asset Management|150|4|0.38
KKR|KKR & Co. Inc.|N|FN|Asset Management|125|5|0.45
CME|CME Group Inc.|Q|FN|Financial Exchanges|270|2|0.18
ICE|Intercontinental Exchange, Inc.|N|FN|Financial Exchanges|160|3|0.2
MCO|Moody's Corporation|N|FN|Financial Data|490|0.8|0.22
AON|Aon plc|N|FN|Insurance Brokers|350|1.2|0.22
PYPL|PayPal Holdings, Inc.|Q|FN|Transaction & Payment Services|68|12|0.38
COF|Capital One Financial Corporation|N|FN|Consumer Finance|220|4|0.32
USB|U.S. Bancorp|N|FN|Banks|48|8|0.26
PNC|The PNC Financial Services Group, Inc.|N|FN|Banks|190|2|0.26
TFC|Truist Financial Corporation|N|FN|Banks|45|8|0.28
AIG|American International Group, Inc.|N|FN|Insurance|78|4|0.26
MET|MetLife, Inc.|N|FN|Life Insurance|80|3|0.26
PRU|Prudential Financial, Inc.|N|FN|Life Insurance|105|1.8|0.26
AFL|Aflac Incorporated|N|FN|Life Insurance|108|2|0.2
ALL|The Allstate Corporation|N|FN|Property & Casualty Insurance|200|1.5|0.22
TRV|The Travelers Companies, Inc.|N|FN|Property & Casualty Insurance|270|1.2|0.2
AJG|Arthur J. Gallagher & Co.|N|FN|Insurance Brokers|260|1.5|0.22
MSCI|MSCI Inc.|N|FN|Financial Data|560|0.6|0.26
FI|Fiserv, Inc.|N|FN|Transaction & Payment Services|70|8|0.45
FIS|Fidelity National Information Services, Inc.|N|FN|Transaction & Payment Services|65|4|0.3
GPN|Global Payments Inc.|N|FN|Transaction & Payment Services|80|3|0.38
BK|The Bank of New York Mellon Corporation|N|FN|Asset Management|105|4|0.22
STT|State Street Corporation|N|FN|Asset Management|115|2|0.26
NTRS|Northern Trust Corporation|Q|FN|Asset Management|130|1.2|0.26
TROW|T. Rowe Price Group, Inc.|Q|FN|Asset Management|105|1.5|0.28
AMP|Ameriprise Financial, Inc.|N|FN|Asset Management|480|0.5|0.28
BEN|Franklin Resources, Inc.|N|FN|Asset Management|23|5|0.3
IVZ|Invesco Ltd.|N|FN|Asset Management|23|5|0.35
RJF|Raymond James Financial, Inc.|N|FN|Capital Markets|160|1.2|0.28
NDAQ|Nasdaq, Inc.|Q|FN|Financial Exchanges|88|4|0.22
CBOE|Cboe Global Markets, Inc.|C|FN|Financial Exchanges|245|1|0.2
MTB|M&T Bank Corporation|N|FN|Banks|185|1|0.28
FITB|Fifth Third Bancorp|Q|FN|Banks|43|4|0.3
HBAN|Huntington Bancshares Incorporated|Q|FN|Banks|16|20|0.3
RF|Regions Financial Corporation|N|FN|Banks|25|8|0.3
KEY|KeyCorp|N|FN|Banks|18|15|0.32
CFG|Citizens Financial Group, Inc.|N|FN|Banks|52|4|0.32
SYF|Synchrony Financial|N|FN|Consumer Finance|72|4|0.35
HIG|The Hartford Insurance Group, Inc.|N|FN|Insurance|125|1.5|0.22
PFG|Principal Financial Group, Inc.|Q|FN|Life Insurance|80|1.2|0.25
L|Loews Corporation|N|FN|Insurance|100|0.8|0.18
CINF|Cincinnati Financial Corporation|Q|FN|Property & Casualty Insurance|160|0.7|0.22
WRB|W. R. Berkley Corporation|N|FN|Property & Casualty Insurance|72|2|0.22
BRO|Brown & Brown, Inc.|N|FN|Insurance Brokers|85|2|0.24
WTW|Willis Towers Watson Public Limited Company|Q|FN|Insurance Brokers|330|0.6|0.2
ACGL|Arch Capital Group Ltd.|Q|FN|Insurance|90|2|0.24
EG|Everest Group, Ltd.|N|FN|Reinsurance|330|0.4|0.24
GL|Globe Life Inc.|N|FN|Life Insurance|130|0.8|0.3
AIZ|Assurant, Inc.|N|FN|Insurance|220|0.4|0.22
ERIE|Erie Indemnity Company|Q|FN|Insurance Brokers|360|0.2|0.3
JKHY|Jack Henry & Associates, Inc.|Q|FN|Transaction & Payment Services|160|0.7|0.22
CPAY|Corpay, Inc.|N|FN|Transaction & Payment Services|300|0.5|0.3
FDS|FactSet Research Systems Inc.|N|FN|Financial Data|290|0.5|0.28
COIN|Coinbase Global, Inc.|Q|FN|Financial Exchanges|320|10|0.7
HOOD|Robinhood Markets, Inc.|Q|FN|Capital Markets|130|35|0.75
APO|Apollo Global Management, Inc.|N|FN|Asset Management|135|4|0.4
IBKR|Interactive Brokers Group, Inc.|Q|FN|Capital Markets|65|6|0.38
XYZ|Block, Inc.|N|FN|Transaction & Payment Services|70|8|0.5
# Health Care
LLY|Eli Lilly and Company|N|HC|Pharmaceuticals|850|4|0.35
UNH|UnitedHealth Group Incorporated|N|HC|Managed Health Care|330|9|0.38
JNJ|Johnson & Johnson|N|HC|Pharmaceuticals|190|7|0.17
ABBV|AbbVie Inc.|N|HC|Biotechnology|225|6|0.25
MRK|Merck & Co., Inc.|N|HC|Pharmaceuticals|90|12|0.26
TMO|Thermo Fisher Scientific Inc.|N|HC|Life Sciences Tools|560|2|0.26
ABT|Abbott Laboratories|N|HC|Health Care Equipment|130|5|0.2
ISRG|Intuitive Surgical, Inc.|Q|HC|Health Care Equipment|520|1.8|0.32
DHR|Danaher Corporation|N|HC|Life Sciences Tools|210|3.5|0.27
AMGN|Amgen Inc.|Q|HC|Biotechnology|320|2.5|0.25
PFE|Pfizer Inc.|N|HC|Pharmaceuticals|25|35|0.24
BSX|Boston Scientific Corporation|N|HC|Health Care Equipment|100|6|0.25
SYK|Stryker Corporation|N|HC|Health Care Equipment|380|1.3|0.22
GILD|Gilead Sciences, Inc.|Q|HC|Biotechnology|120|7|0.25
VRTX|Vertex Pharmaceuticals Incorporated|Q|HC|Biotechnology|440|1.5|0.3
MDT|Medtronic plc|N|HC|Health Care Equipment|95|6|0.2
BMY|Bristol-Myers Squibb Company|N|HC|Pharmaceuticals|46|12|0.26
REGN|Regeneron Pharmaceuticals, Inc.|Q|HC|Biotechnology|650|1|0.35
CI|The Cigna Group|N|HC|Health Care Services|280|1.8|0.3
ELV|Elevance Health, Inc.|N|HC|Managed Health Care|340|1.8|0.35
CVS|CVS Health Corporation|N|HC|Health Care Services|78|8|0.32
HCA|HCA Healthcare, Inc.|N|HC|Health Care Facilities|430|1.3|0.3
ZTS|Zoetis Inc.|N|HC|Pharmaceuticals|130|3|0.26
MCK|McKesson Corporation|N|HC|Health Care Distributors|800|0.9|0.22
COR|Cencora, Inc.|N|HC|Health Care Distributors|330|1.3|0.22
BDX|Becton, Dickinson and Company|N|HC|Health Care Equipment|190|2|0.22
EW|Edwards Lifesciences Corporation|N|HC|Health Care Equipment|80|4|0.3
IDXX|IDEXX Laboratories, Inc.|Q|HC|Health Care Equipment|680|0.6|0.32
A|Agilent Technologies, Inc.|N|HC|Life Sciences Tools|145|1.8|0.28
IQV|IQVIA Holdings Inc.|N|HC|Life Sciences Tools|210|1.5|0.32
GEHC|GE HealthCare Technologies Inc.|Q|HC|Health Care Equipment|75|4|0.3
HUM|Humana Inc.|N|HC|Managed Health Care|260|1.8|0.4
CNC|Centene Corporation|N|HC|Managed Health Care|36|10|0.5
MOH|Molina Healthcare, Inc.|N|HC|Managed Health Care|150|1.5|0.5
RMD|ResMed Inc.|N|HC|Health Care Equipment|260|1|0.28
DXCM|DexCom, Inc.|Q|HC|Health Care Equipment|65|5|0.45
BIIB|Biogen Inc.|Q|HC|Biotechnology|155|1.5|0.3
MTD|Mettler-Toledo International Inc.|N|HC|Life Sciences Tools|1400|0.15|0.28
WAT|Waters Corporation|N|HC|Life Sciences Tools|380|0.6|0.3
STE|STERIS plc|N|HC|Health Care Equipment|250|0.6|0.22
WST|West Pharmaceutical Services, Inc.|N|HC|Life Sciences Tools|270|0.8|0.38
ZBH|Zimmer Biomet Holdings, Inc.|N|HC|Health Care Equipment|95|1.5|0.25
PODD|Insulet Corporation|Q|HC|Health Care Equipment|330|0.8|0.38
LH|Labcorp Holdings Inc.|N|HC|Health Care Services|270|0.7|0.22
DGX|Quest Diagnostics Incorporated|N|HC|Health Care Services|185|1|0.2
COO|The Cooper Companies, Inc.|Q|HC|Health Care Supplies|75|2|0.32
BAX|Baxter International Inc.|N|HC|Health Care Equipment|22|6|0.35
HOLX|Hologic, Inc.|Q|HC|Health Care Equipment|74|2|0.25
ALGN|Align Technology, Inc.|Q|HC|Health Care Supplies|140|1|0.45
INCY|Incyte Corporation|Q|HC|Biotechnology|95|2|0.32
MRNA|Moderna, Inc.|Q|HC|Biotechnology|26|10|0.6
VTRS|Viatris Inc.|Q|HC|Pharmaceuticals|11|10|0.32
CRL|Charles River Laboratories International, Inc.|N|HC|Life Sciences Tools|170|0.8|0.4
TECH|Bio-Techne Corporation|Q|HC|Life Sciences Tools|60|1.5|0.38
RVTY|Revvity, Inc.|N|HC|Life Sciences Tools|95|1.2|0.32
UHS|Universal Health Services, Inc.|N|HC|Health Care Facilities|230|0.8|0.32
HSIC|Henry Schein, Inc.|Q|HC|Health Care Distributors|70|1.5|0.25
SOLV|Solventum Corporation|N|HC|Health Care Equipment|75|1.5|0.3
DVA|DaVita Inc.|N|HC|Health Care Services|130|1|0.3
# Consumer Staples
WMT|Walmart Inc.|Q|ST|Consumer Staples Merchandise Retail|105|18|0.2
COST|Costco Wholesale Corporation|Q|ST|Consumer Staples Merchandise Retail|920|2|0.2
PG|The Procter & Gamble Company|N|ST|Household Products|150|7|0.16
KO|The Coca-Cola Company|N|ST|Soft Drinks|70|14|0.15
PEP|PepsiCo, Inc.|Q|ST|Soft Drinks|145|7|0.18
PM|Philip Morris International Inc.|N|ST|Tobacco|155|5|0.25
MO|Altria Group, Inc.|N|ST|Tobacco|60|8|0.2
MDLZ|Mondelez International, Inc.|Q|ST|Packaged Foods|58|8|0.2
CL|Colgate-Palmolive Company|N|ST|Household Products|78|5|0.18
TGT|Target Corporation|N|ST|Consumer Staples Merchandise Retail|92|6|0.35
KMB|Kimberly-Clark Corporation|Q|ST|Household Products|115|2.5|0.2
GIS|General Mills, Inc.|N|ST|Packaged Foods|48|5|0.2
KDP|Keurig Dr Pepper Inc.|Q|ST|Soft Drinks|28|12|0.22
MNST|Monster Beverage Corporation|Q|ST|Soft Drinks|70|6|0.26
STZ|Constellation Brands, Inc.|N|ST|Distillers & Vintners|135|2|0.3
KR|The Kroger Co.|N|ST|Food Retail|66|6|0.22
SYY|Sysco Corporation|N|ST|Food Distributors|76|3|0.2
KVUE|Kenvue Inc.|N|ST|Personal Care Products|16|25|0.35
KHC|The Kraft Heinz Company|Q|ST|Packaged Foods|25|12|0.24
HSY|The Hershey Company|N|ST|Packaged Foods|180|1.8|0.25
ADM|Archer-Daniels-Midland Company|N|ST|Agricultural Products|60|4|0.28
EL|The Estee Lauder Companies Inc.|N|ST|Personal Care Products|90|4|0.45
CHD|Church & Dwight Co., Inc.|N|ST|Household Products|88|2|0.2
CLX|The Clorox Company|N|ST|Household Products|115|1.5|0.22
K|Kellanova|N|ST|Packaged Foods|80|2|0.12
MKC|McCormick & Company, Incorporated|N|ST|Packaged Foods|68|2|0.22
HRL|Hormel Foods Corporation|N|ST|Packaged Foods|23|3|0.25
CPB|The Campbell's Company|Q|ST|Packaged Foods|31|3|0.25
CAG|Conagra Brands, Inc.|N|ST|Packaged Foods|18|6|0.24
SJM|The J. M. Smucker Company|N|ST|Packaged Foods|105|1.2|0.24
TSN|Tyson Foods, Inc.|N|ST|Packaged Foods|53|3|0.24
TAP|Molson Coors Beverage Company|N|ST|Brewers|46|2|0.24
BG|Bunge Global SA|N|ST|Agricultural Products|90|1.5|0.28
LW|Lamb Weston Holdings, Inc.|N|ST|Packaged Foods|60|2|0.4
DG|Dollar General Corporation|N|ST|Consumer Staples Merchandise Retail|105|3|0.4
DLTR|Dollar Tree, Inc.|Q|ST|Consumer Staples Merchandise Retail|105|3|0.4
`);
