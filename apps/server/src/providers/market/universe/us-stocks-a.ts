import { parseUniverse } from './types';

/** S&P 500 companies, part 1: Information Technology, Communication Services, Consumer Discretionary. */
export const US_STOCKS_A = parseUniverse(`
AAPL|Apple Inc.|Q|IT|Consumer Electronics|230|55|0.27
MSFT|Microsoft Corporation|Q|IT|Software|480|20|0.24
NVDA|NVIDIA Corporation|Q|IT|Semiconductors|180|200|0.5
AVGO|Broadcom Inc.|Q|IT|Semiconductors|340|25|0.45
ORCL|Oracle Corporation|N|IT|Software|250|12|0.4
CRM|Salesforce, Inc.|N|IT|Software|250|7|0.32
ADBE|Adobe Inc.|Q|IT|Software|350|4|0.32
AMD|Advanced Micro Devices, Inc.|Q|IT|Semiconductors|220|50|0.5
CSCO|Cisco Systems, Inc.|Q|IT|Communications Equipment|70|20|0.22
ACN|Accenture plc|N|IT|IT Services|250|4|0.26
IBM|International Business Machines Corporation|N|IT|IT Services|290|5|0.25
INTU|Intuit Inc.|Q|IT|Software|660|2|0.3
NOW|ServiceNow, Inc.|N|IT|Software|850|1.5|0.35
QCOM|QUALCOMM Incorporated|Q|IT|Semiconductors|170|8|0.35
TXN|Texas Instruments Incorporated|Q|IT|Semiconductors|170|7|0.3
AMAT|Applied Materials, Inc.|Q|IT|Semiconductor Equipment|210|7|0.42
PANW|Palo Alto Networks, Inc.|Q|IT|Software|200|5|0.35
ADI|Analog Devices, Inc.|Q|IT|Semiconductors|240|3|0.3
LRCX|Lam Research Corporation|Q|IT|Semiconductor Equipment|140|10|0.45
MU|Micron Technology, Inc.|Q|IT|Semiconductors|200|25|0.5
KLAC|KLA Corporation|Q|IT|Semiconductor Equipment|1100|1|0.4
ANET|Arista Networks, Inc.|N|IT|Communications Equipment|140|8|0.45
INTC|Intel Corporation|Q|IT|Semiconductors|37|90|0.5
SNPS|Synopsys, Inc.|Q|IT|Software|430|2|0.4
CDNS|Cadence Design Systems, Inc.|Q|IT|Software|320|2|0.35
CRWD|CrowdStrike Holdings, Inc.|Q|IT|Software|500|3|0.45
APH|Amphenol Corporation|N|IT|Electronic Components|130|8|0.3
MSI|Motorola Solutions, Inc.|N|IT|Communications Equipment|400|1|0.22
ROP|Roper Technologies, Inc.|Q|IT|Software|450|0.6|0.2
FTNT|Fortinet, Inc.|Q|IT|Software|85|6|0.4
ADSK|Autodesk, Inc.|Q|IT|Software|310|1.5|0.3
NXPI|NXP Semiconductors N.V.|Q|IT|Semiconductors|200|2.5|0.38
MCHP|Microchip Technology Incorporated|Q|IT|Semiconductors|60|8|0.45
TEL|TE Connectivity plc|N|IT|Electronic Components|230|1.5|0.25
IT|Gartner, Inc.|N|IT|IT Services|240|0.8|0.35
CTSH|Cognizant Technology Solutions Corporation|Q|IT|IT Services|72|4|0.24
GLW|Corning Incorporated|N|IT|Electronic Components|85|6|0.32
HPQ|HP Inc.|N|IT|Technology Hardware|27|8|0.3
HPE|Hewlett Packard Enterprise Company|N|IT|Technology Hardware|23|20|0.4
ON|ON Semiconductor Corporation|Q|IT|Semiconductors|50|8|0.5
MPWR|Monolithic Power Systems, Inc.|Q|IT|Semiconductors|950|0.6|0.45
CDW|CDW Corporation|Q|IT|IT Services|160|1|0.28
KEYS|Keysight Technologies, Inc.|N|IT|Electronic Equipment|170|1.2|0.3
FSLR|First Solar, Inc.|Q|IT|Semiconductors|230|3|0.55
TYL|Tyler Technologies, Inc.|N|IT|Software|480|0.3|0.25
DELL|Dell Technologies Inc.|N|IT|Technology Hardware|130|6|0.45
NTAP|NetApp, Inc.|Q|IT|Technology Hardware|110|2|0.35
WDC|Western Digital Corporation|Q|IT|Technology Hardware|140|8|0.5
STX|Seagate Technology Holdings plc|Q|IT|Technology Hardware|230|3|0.45
PTC|PTC Inc.|Q|IT|Software|190|1|0.28
TDY|Teledyne Technologies Incorporated|N|IT|Electronic Equipment|500|0.3|0.22
ZBRA|Zebra Technologies Corporation|Q|IT|Electronic Equipment|280|0.5|0.35
TER|Teradyne, Inc.|Q|IT|Semiconductor Equipment|150|3|0.5
FFIV|F5, Inc.|Q|IT|Communications Equipment|250|0.7|0.3
JBL|Jabil Inc.|N|IT|Electronic Components|210|1.5|0.38
GDDY|GoDaddy Inc.|N|IT|IT Services|140|2|0.32
GEN|Gen Digital Inc.|Q|IT|Software|27|4|0.28
AKAM|Akamai Technologies, Inc.|Q|IT|IT Services|80|2|0.32
EPAM|EPAM Systems, Inc.|N|IT|IT Services|160|0.8|0.42
SWKS|Skyworks Solutions, Inc.|Q|IT|Semiconductors|70|3|0.4
TRMB|Trimble Inc.|Q|IT|Electronic Equipment|78|1.5|0.3
VRSN|VeriSign, Inc.|Q|IT|IT Services|250|0.7|0.24
FICO|Fair Isaac Corporation|N|IT|Software|1600|0.3|0.42
SMCI|Super Micro Computer, Inc.|Q|IT|Technology Hardware|40|25|0.8
ENPH|Enphase Energy, Inc.|Q|IT|Semiconductor Equipment|35|5|0.65
PLTR|Palantir Technologies Inc.|Q|IT|Software|175|60|0.65
APP|AppLovin Corporation|Q|IT|Software|600|5|0.7
WDAY|Workday, Inc.|Q|IT|Software|230|3|0.32
DDOG|Datadog, Inc.|Q|IT|Software|160|5|0.45
QRVO|Qorvo, Inc.|Q|IT|Semiconductors|90|1.5|0.42
# Communication Services
GOOGL|Alphabet Inc. Class A|Q|CS|Interactive Media|280|35|0.3
GOOG|Alphabet Inc. Class C|Q|CS|Interactive Media|281|22|0.3
META|Meta Platforms, Inc.|Q|CS|Interactive Media|650|12|0.38
NFLX|Netflix, Inc.|Q|CS|Entertainment|110|40|0.38
T|AT&T Inc.|N|CS|Telecom Services|26|35|0.2
VZ|Verizon Communications Inc.|N|CS|Telecom Services|41|18|0.18
TMUS|T-Mobile US, Inc.|Q|CS|Telecom Services|220|4|0.22
DIS|The Walt Disney Company|N|CS|Entertainment|112|9|0.28
CMCSA|Comcast Corporation|Q|CS|Media|28|25|0.26
CHTR|Charter Communications, Inc.|Q|CS|Media|230|1.5|0.38
EA|Electronic Arts Inc.|Q|CS|Entertainment|200|3|0.22
TTWO|Take-Two Interactive Software, Inc.|Q|CS|Entertainment|240|1.8|0.3
WBD|Warner Bros. Discovery, Inc.|Q|CS|Entertainment|22|40|0.5
OMC|Omnicom Group Inc.|N|CS|Advertising|75|2|0.25
LYV|Live Nation Entertainment, Inc.|N|CS|Entertainment|150|2|0.3
FOXA|Fox Corporation Class A|Q|CS|Media|60|3|0.26
FOX|Fox Corporation Class B|Q|CS|Media|55|1.5|0.26
NWSA|News Corp Class A|Q|CS|Media|27|3|0.25
NWS|News Corp Class B|Q|CS|Media|31|1|0.25
MTCH|Match Group, Inc.|Q|CS|Interactive Media|33|4|0.35
IPG|The Interpublic Group of Companies, Inc.|N|CS|Advertising|25|5|0.28
PSKY|Paramount Skydance Corporation|Q|CS|Media|17|10|0.45
TKO|TKO Group Holdings, Inc.|N|CS|Entertainment|190|1|0.3
# Consumer Discretionary
AMZN|Amazon.com, Inc.|Q|CD|Broadline Retail|230|45|0.32
TSLA|Tesla, Inc.|Q|CD|Automobiles|420|95|0.6
HD|The Home Depot, Inc.|N|CD|Home Improvement Retail|380|3.5|0.22
MCD|McDonald's Corporation|N|CD|Restaurants|300|3|0.18
LOW|Lowe's Companies, Inc.|N|CD|Home Improvement Retail|240|2.5|0.25
BKNG|Booking Holdings Inc.|Q|CD|Hotels & Travel|5100|0.25|0.3
TJX|The TJX Companies, Inc.|N|CD|Apparel Retail|145|5|0.2
SBUX|Starbucks Corporation|Q|CD|Restaurants|85|9|0.32
NKE|NIKE, Inc.|N|CD|Footwear|65|12|0.38
CMG|Chipotle Mexican Grill, Inc.|N|CD|Restaurants|33|25|0.38
ORLY|O'Reilly Automotive, Inc.|Q|CD|Auto Parts Retail|100|5|0.22
AZO|AutoZone, Inc.|N|CD|Auto Parts Retail|3900|0.12|0.22
MAR|Marriott International, Inc.|Q|CD|Hotels & Travel|270|1.5|0.27
HLT|Hilton Worldwide Holdings Inc.|N|CD|Hotels & Travel|270|1.5|0.25
ABNB|Airbnb, Inc.|Q|CD|Hotels & Travel|125|5|0.4
GM|General Motors Company|N|CD|Automobiles|70|10|0.35
F|Ford Motor Company|N|CD|Automobiles|13|60|0.38
RCL|Royal Caribbean Cruises Ltd.|N|CD|Cruise Lines|280|2|0.45
CCL|Carnival Corporation & plc|N|CD|Cruise Lines|27|25|0.5
NCLH|Norwegian Cruise Line Holdings Ltd.|N|CD|Cruise Lines|20|15|0.5
ROST|Ross Stores, Inc.|Q|CD|Apparel Retail|160|2.5|0.25
DHI|D.R. Horton, Inc.|N|CD|Homebuilding|155|3|0.35
LEN|Lennar Corporation|N|CD|Homebuilding|125|3|0.35
PHM|PulteGroup, Inc.|N|CD|Homebuilding|120|2|0.35
NVR|NVR, Inc.|N|CD|Homebuilding|7300|0.03|0.3
YUM|Yum! Brands, Inc.|N|CD|Restaurants|150|2|0.2
DRI|Darden Restaurants, Inc.|N|CD|Restaurants|180|1.2|0.25
EBAY|eBay Inc.|Q|CD|Broadline Retail|85|5|0.3
GRMN|Garmin Ltd.|N|CD|Consumer Electronics|210|1|0.28
DECK|Deckers Outdoor Corporation|N|CD|Footwear|95|3|0.5
ULTA|Ulta Beauty, Inc.|Q|CD|Specialty Retail|530|0.8|0.3
BBY|Best Buy Co., Inc.|N|CD|Specialty Retail|75|3|0.35
TSCO|Tractor Supply Company|Q|CD|Specialty Retail|55|5|0.25
GPC|Genuine Parts Company|N|CD|Distributors|130|1|0.25
LKQ|LKQ Corporation|Q|CD|Distributors|30|2.5|0.28
POOL|Pool Corporation|Q|CD|Distributors|260|0.5|0.3
EXPE|Expedia Group, Inc.|Q|CD|Hotels & Travel|250|2|0.42
LVS|Las Vegas Sands Corp.|N|CD|Casinos & Gaming|65|5|0.35
WYNN|Wynn Resorts, Limited|Q|CD|Casinos & Gaming|125|2|0.4
MGM|MGM Resorts International|N|CD|Casinos & Gaming|34|4|0.4
CZR|Caesars Entertainment, Inc.|Q|CD|Casinos & Gaming|22|5|0.5
HAS|Hasbro, Inc.|Q|CD|Leisure Products|80|1.5|0.3
TPR|Tapestry, Inc.|N|CD|Apparel & Luxury|110|3|0.38
RL|Ralph Lauren Corporation|N|CD|Apparel & Luxury|340|0.8|0.32
LULU|lululemon athletica inc.|Q|CD|Apparel & Luxury|170|3|0.45
KMX|CarMax, Inc.|N|CD|Automotive Retail|33|4|0.45
APTV|Aptiv PLC|N|CD|Auto Parts|80|2.5|0.4
BWA|BorgWarner Inc.|N|CD|Auto Parts|43|2.5|0.32
DPZ|Domino's Pizza, Inc.|Q|CD|Restaurants|420|0.6|0.25
WSM|Williams-Sonoma, Inc.|N|CD|Specialty Retail|190|1.5|0.4
DASH|DoorDash, Inc.|Q|CD|Internet Retail|210|4|0.42
`);
