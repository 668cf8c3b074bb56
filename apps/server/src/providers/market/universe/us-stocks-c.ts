import { parseUniverse } from './types';

/** S&P 500 companies, part 3: Industrials, Energy, Materials, Real Estate, Utilities. */
export const US_STOCKS_C = parseUniverse(`
GE|GE Aerospace|N|IN|Aerospace & Defense|290|5|0.3
CAT|Caterpillar Inc.|N|IN|Construction Machinery|520|2.5|0.3
RTX|RTX Corporation|N|IN|Aerospace & Defense|170|5|0.22
UBER|Uber Technologies, Inc.|N|IN|Passenger Ground Transportation|95|18|0.4
HON|Honeywell International Inc.|Q|IN|Industrial Conglomerates|200|4|0.22
UNP|Union Pacific Corporation|N|IN|Railroads|225|3|0.22
BA|The Boeing Company|N|IN|Aerospace & Defense|210|8|0.38
DE|Deere & Company|N|IN|Agricultural Machinery|470|1.5|0.26
LMT|Lockheed Martin Corporation|N|IN|Aerospace & Defense|480|1.3|0.22
ETN|Eaton Corporation plc|N|IN|Electrical Equipment|370|2.5|0.32
ADP|Automatic Data Processing, Inc.|Q|IN|Human Resource Services|260|2|0.2
GEV|GE Vernova Inc.|N|IN|Electrical Equipment|600|3|0.5
PH|Parker-Hannifin Corporation|N|IN|Industrial Machinery|780|0.7|0.28
WM|Waste Management, Inc.|N|IN|Environmental Services|215|1.8|0.18
TT|Trane Technologies plc|N|IN|Building Products|420|1|0.28
UPS|United Parcel Service, Inc.|N|IN|Air Freight & Logistics|95|6|0.3
GD|General Dynamics Corporation|N|IN|Aerospace & Defense|340|1.2|0.2
NOC|Northrop Grumman Corporation|N|IN|Aerospace & Defense|570|0.9|0.22
ITW|Illinois Tool Works Inc.|N|IN|Industrial Machinery|250|1.2|0.2
MMM|3M Company|N|IN|Industrial Conglomerates|165|3.5|0.26
EMR|Emerson Electric Co.|N|IN|Electrical Equipment|135|3|0.28
CTAS|Cintas Corporation|Q|IN|Diversified Support Services|190|1.8|0.24
TDG|TransDigm Group Incorporated|N|IN|Aerospace & Defense|1350|0.3|0.28
FDX|FedEx Corporation|N|IN|Air Freight & Logistics|270|2|0.35
CSX|CSX Corporation|Q|IN|Railroads|35|12|0.24
NSC|Norfolk Southern Corporation|N|IN|Railroads|285|1.2|0.24
PCAR|PACCAR Inc|Q|IN|Construction Machinery|100|3|0.26
CARR|Carrier Global Corporation|N|IN|Building Products|60|5|0.32
JCI|Johnson Controls International plc|N|IN|Building Products|115|4|0.26
CPRT|Copart, Inc.|Q|IN|Diversified Support Services|45|6|0.28
RSG|Republic Services, Inc.|N|IN|Environmental Services|225|1.3|0.18
PWR|Quanta Services, Inc.|N|IN|Construction & Engineering|420|1.2|0.38
URI|United Rentals, Inc.|N|IN|Trading Companies & Distributors|900|0.6|0.35
GWW|W.W. Grainger, Inc.|N|IN|Trading Companies & Distributors|980|0.3|0.24
FAST|Fastenal Company|Q|IN|Trading Companies & Distributors|42|6|0.24
AME|AMETEK, Inc.|N|IN|Electrical Equipment|195|1.2|0.22
CMI|Cummins Inc.|N|IN|Construction Machinery|460|0.8|0.28
OTIS|Otis Worldwide Corporation|N|IN|Industrial Machinery|90|3|0.2
PAYX|Paychex, Inc.|Q|IN|Human Resource Services|120|2.5|0.2
ODFL|Old Dominion Freight Line, Inc.|Q|IN|Cargo Ground Transportation|145|1.8|0.35
VRSK|Verisk Analytics, Inc.|Q|IN|Research & Consulting Services|230|1|0.24
LHX|L3Harris Technologies, Inc.|N|IN|Aerospace & Defense|290|1.2|0.24
AXON|Axon Enterprise, Inc.|Q|IN|Aerospace & Defense|560|0.8|0.45
HWM|Howmet Aerospace Inc.|N|IN|Aerospace & Defense|200|3|0.35
IR|Ingersoll Rand Inc.|N|IN|Industrial Machinery|80|3|0.3
ROK|Rockwell Automation, Inc.|N|IN|Electrical Equipment|350|0.8|0.28
EFX|Equifax Inc.|N|IN|Research & Consulting Services|215|1|0.3
DAL|Delta Air Lines, Inc.|N|IN|Passenger Airlines|60|8|0.42
UAL|United Airlines Holdings, Inc.|Q|IN|Passenger Airlines|100|6|0.5
LUV|Southwest Airlines Co.|N|IN|Passenger Airlines|32|8|0.38
XYL|Xylem Inc.|N|IN|Industrial Machinery|140|1.5|0.25
WAB|Westinghouse Air Brake Technologies Corporation|N|IN|Construction Machinery|200|1|0.26
DOV|Dover Corporation|N|IN|Industrial Machinery|180|1|0.26
FTV|Fortive Corporation|N|IN|Industrial Machinery|52|3|0.26
VLTO|Veralto Corporation|N|IN|Environmental Services|100|1.3|0.22
HUBB|Hubbell Incorporated|N|IN|Electrical Equipment|430|0.5|0.32
BR|Broadridge Financial Solutions, Inc.|N|IN|Data Processing & Outsourced Services|235|0.6|0.2
LDOS|Leidos Holdings, Inc.|N|IN|Diversified Support Services|185|1|0.28
EXPD|Expeditors International of Washington, Inc.|N|IN|Air Freight & Logistics|125|1.2|0.22
CHRW|C.H. Robinson Worldwide, Inc.|Q|IN|Air Freight & Logistics|130|1.5|0.3
JBHT|J.B. Hunt Transport Services, Inc.|Q|IN|Cargo Ground Transportation|160|1|0.3
SNA|Snap-on Incorporated|N|IN|Industrial Machinery|330|0.4|0.22
PNR|Pentair plc|N|IN|Industrial Machinery|105|1.5|0.28
MAS|Masco Corporation|N|IN|Building Products|68|2|0.3
AOS|A. O. Smith Corporation|N|IN|Building Products|68|1.2|0.26
SWK|Stanley Black & Decker, Inc.|N|IN|Industrial Machinery|70|2|0.35
TXT|Textron Inc.|N|IN|Aerospace & Defense|80|1.2|0.26
HII|Huntington Ingalls Industries, Inc.|N|IN|Aerospace & Defense|300|0.5|0.3
J|Jacobs Solutions Inc.|N|IN|Construction & Engineering|150|0.8|0.24
ALLE|Allegion plc|N|IN|Building Products|165|0.8|0.24
NDSN|Nordson Corporation|Q|IN|Industrial Machinery|230|0.4|0.26
IEX|IDEX Corporation|N|IN|Industrial Machinery|170|0.6|0.26
GNRC|Generac Holdings Inc.|N|IN|Electrical Equipment|170|1|0.5
ROL|Rollins, Inc.|N|IN|Environmental Services|58|2|0.2
DAY|Dayforce, Inc.|N|IN|Human Resource Services|69|2|0.35
PAYC|Paycom Software, Inc.|N|IN|Human Resource Services|200|0.6|0.4
BLDR|Builders FirstSource, Inc.|N|IN|Building Products|125|1.5|0.42
LII|Lennox International Inc.|N|IN|Building Products|520|0.4|0.32
EME|EMCOR Group, Inc.|N|IN|Construction & Engineering|620|0.5|0.38
# Energy
XOM|Exxon Mobil Corporation|N|EN|Integrated Oil & Gas|115|15|0.22
CVX|Chevron Corporation|N|EN|Integrated Oil & Gas|155|8|0.22
COP|ConocoPhillips|N|EN|Oil & Gas Exploration & Production|92|7|0.28
EOG|EOG Resources, Inc.|N|EN|Oil & Gas Exploration & Production|110|3|0.28
SLB|SLB N.V.|N|EN|Oil & Gas Equipment & Services|36|15|0.35
WMB|The Williams Companies, Inc.|N|EN|Oil & Gas Storage & Transportation|60|7|0.24
KMI|Kinder Morgan, Inc.|N|EN|Oil & Gas Storage & Transportation|27|14|0.24
OKE|ONEOK, Inc.|N|EN|Oil & Gas Storage & Transportation|72|4|0.3
PSX|Phillips 66|N|EN|Oil & Gas Refining & Marketing|135|2.5|0.32
MPC|Marathon Petroleum Corporation|N|EN|Oil & Gas Refining & Marketing|190|2.5|0.34
VLO|Valero Energy Corporation|N|EN|Oil & Gas Refining & Marketing|170|3|0.34
OXY|Occidental Petroleum Corporation|N|EN|Integrated Oil & Gas|42|10|0.32
FANG|Diamondback Energy, Inc.|Q|EN|Oil & Gas Exploration & Production|145|2|0.34
HAL|Halliburton Company|N|EN|Oil & Gas Equipment & Services|26|10|0.38
BKR|Baker Hughes Company|Q|EN|Oil & Gas Equipment & Services|48|7|0.3
DVN|Devon Energy Corporation|N|EN|Oil & Gas Exploration & Production|34|9|0.35
TRGP|Targa Resources Corp.|N|EN|Oil & Gas Storage & Transportation|165|2|0.32
EQT|EQT Corporation|N|EN|Oil & Gas Exploration & Production|55|9|0.4
CTRA|Coterra Energy Inc.|N|EN|Oil & Gas Exploration & Production|25|8|0.32
EXE|Expand Energy Corporation|Q|EN|Oil & Gas Exploration & Production|105|3|0.38
APA|APA Corporation|Q|EN|Oil & Gas Exploration & Production|23|8|0.42
TPL|Texas Pacific Land Corporation|N|EN|Oil & Gas Exploration & Production|950|0.15|0.45
# Materials
LIN|Linde plc|Q|MT|Industrial Gases|440|2|0.18
SHW|The Sherwin-Williams Company|N|MT|Specialty Chemicals|340|1.6|0.24
APD|Air Products and Chemicals, Inc.|N|MT|Industrial Gases|260|1.3|0.26
ECL|Ecolab Inc.|N|MT|Specialty Chemicals|270|1.2|0.2
FCX|Freeport-McMoRan Inc.|N|MT|Copper|42|12|0.42
NEM|Newmont Corporation|N|MT|Gold|85|10|0.42
CTVA|Corteva, Inc.|N|MT|Fertilizers & Agricultural Chemicals|65|3|0.26
DOW|Dow Inc.|N|MT|Commodity Chemicals|23|12|0.4
DD|DuPont de Nemours, Inc.|N|MT|Specialty Chemicals|38|3|0.3
NUE|Nucor Corporation|N|MT|Steel|140|2|0.35
PPG|PPG Industries, Inc.|N|MT|Specialty Chemicals|100|2|0.24
VMC|Vulcan Materials Company|N|MT|Construction Materials|285|0.8|0.28
MLM|Martin Marietta Materials, Inc.|N|MT|Construction Materials|610|0.4|0.28
IP|International Paper Company|N|MT|Paper & Plastic Packaging|40|4|0.32
BALL|Ball Corporation|N|MT|Metal & Glass Containers|50|2.5|0.26
PKG|Packaging Corporation of America|N|MT|Paper & Plastic Packaging|200|0.8|0.26
AMCR|Amcor plc|N|MT|Paper & Plastic Packaging|8.5|20|0.25
AVY|Avery Dennison Corporation|N|MT|Paper & Plastic Packaging|170|0.6|0.22
CF|CF Industries Holdings, Inc.|N|MT|Fertilizers & Agricultural Chemicals|85|2|0.32
MOS|The Mosaic Company|N|MT|Fertilizers & Agricultural Chemicals|28|5|0.4
LYB|LyondellBasell Industries N.V.|N|MT|Specialty Chemicals|48|4|0.35
IFF|International Flavors & Fragrances Inc.|N|MT|Specialty Chemicals|65|2|0.28
STLD|Steel Dynamics, Inc.|Q|MT|Steel|150|1.5|0.35
ALB|Albemarle Corporation|N|MT|Specialty Chemicals|95|3|0.55
SW|Smurfit Westrock plc|N|MT|Paper & Plastic Packaging|40|3|0.32
EMN|Eastman Chemical Company|N|MT|Specialty Chemicals|62|1.3|0.28
# Real Estate
PLD|Prologis, Inc.|N|RE|Industrial REITs|125|4|0.28
AMT|American Tower Corporation|N|RE|Telecom Tower REITs|185|3|0.26
EQIX|Equinix, Inc.|Q|RE|Data Center REITs|780|0.6|0.26
WELL|Welltower Inc.|N|RE|Health Care REITs|180|3|0.24
SPG|Simon Property Group, Inc.|N|RE|Retail REITs|180|1.5|0.26
PSA|Public Storage|N|RE|Self-Storage REITs|280|1|0.22
O|Realty Income Corporation|N|RE|Retail REITs|57|5|0.2
CCI|Crown Castle Inc.|N|RE|Telecom Tower REITs|95|3|0.28
DLR|Digital Realty Trust, Inc.|N|RE|Data Center REITs|165|2|0.3
CBRE|CBRE Group, Inc.|N|RE|Real Estate Services|155|2|0.3
VICI|VICI Properties Inc.|N|RE|Hotel & Resort REITs|30|7|0.2
EXR|Extra Space Storage Inc.|N|RE|Self-Storage REITs|140|1|0.26
AVB|AvalonBay Communities, Inc.|N|RE|Residential REITs|180|0.8|0.22
EQR|Equity Residential|N|RE|Residential REITs|62|2|0.22
IRM|Iron Mountain Incorporated|N|RE|Other Specialized REITs|95|2|0.35
CSGP|CoStar Group, Inc.|Q|RE|Real Estate Services|70|3|0.32
VTR|Ventas, Inc.|N|RE|Health Care REITs|70|2.5|0.24
SBAC|SBA Communications Corporation|Q|RE|Telecom Tower REITs|195|0.9|0.28
WY|Weyerhaeuser Company|N|RE|Timber REITs|24|4|0.26
INVH|Invitation Homes Inc.|N|RE|Single-Family Residential REITs|29|4|0.24
ESS|Essex Property Trust, Inc.|N|RE|Residential REITs|260|0.4|0.22
MAA|Mid-America Apartment Communities, Inc.|N|RE|Residential REITs|135|0.8|0.22
ARE|Alexandria Real Estate Equities, Inc.|N|RE|Office REITs|70|2|0.38
KIM|Kimco Realty Corporation|N|RE|Retail REITs|21|5|0.26
REG|Regency Centers Corporation|Q|RE|Retail REITs|72|1|0.22
UDR|UDR, Inc.|N|RE|Residential REITs|36|2.5|0.24
CPT|Camden Property Trust|N|RE|Residential REITs|105|0.8|0.24
HST|Host Hotels & Resorts, Inc.|Q|RE|Hotel & Resort REITs|17|7|0.3
BXP|BXP, Inc.|N|RE|Office REITs|72|1.5|0.32
FRT|Federal Realty Investment Trust|N|RE|Retail REITs|100|0.6|0.24
DOC|Healthpeak Properties, Inc.|N|RE|Health Care REITs|18|8|0.26
# Utilities
NEE|NextEra Energy, Inc.|N|UT|Electric Utilities|82|10|0.26
SO|The Southern Company|N|UT|Electric Utilities|92|4|0.17
DUK|Duke Energy Corporation|N|UT|Electric Utilities|122|3|0.16
CEG|Constellation Energy Corporation|Q|UT|Electric Utilities|350|3|0.5
AEP|American Electric Power Company, Inc.|Q|UT|Electric Utilities|115|3|0.18
SRE|Sempra|N|UT|Multi-Utilities|90|4|0.22
D|Dominion Energy, Inc.|N|UT|Multi-Utilities|60|4|0.2
EXC|Exelon Corporation|Q|UT|Electric Utilities|45|6|0.18
PCG|PG&E Corporation|N|UT|Multi-Utilities|16|20|0.3
XEL|Xcel Energy Inc.|Q|UT|Electric Utilities|78|4|0.18
PEG|Public Service Enterprise Group Incorporated|N|UT|Multi-Utilities|82|2.5|0.22
ED|Consolidated Edison, Inc.|N|UT|Multi-Utilities|100|2|0.16
VST|Vistra Corp.|N|UT|Independent Power Producers|190|5|0.55
WEC|WEC Energy Group, Inc.|N|UT|Multi-Utilities|112|2|0.16
EIX|Edison International|N|UT|Electric Utilities|58|3|0.3
ETR|Entergy Corporation|N|UT|Electric Utilities|95|3|0.2
DTE|DTE Energy Company|N|UT|Multi-Utilities|135|1|0.17
AEE|Ameren Corporation|N|UT|Multi-Utilities|102|1.3|0.17
PPL|PPL Corporation|N|UT|Electric Utilities|37|5|0.17
FE|FirstEnergy Corp.|N|UT|Electric Utilities|45|4|0.17
ES|Eversource Energy|N|UT|Electric Utilities|70|2|0.22
CNP|CenterPoint Energy, Inc.|N|UT|Multi-Utilities|38|5|0.18
CMS|CMS Energy Corporation|N|UT|Multi-Utilities|73|2|0.16
ATO|Atmos Energy Corporation|N|UT|Gas Utilities|165|1|0.16
AWK|American Water Works Company, Inc.|N|UT|Water Utilities|135|1.2|0.18
NRG|NRG Energy, Inc.|N|UT|Independent Power Producers|165|2.5|0.45
LNT|Alliant Energy Corporation|Q|UT|Electric Utilities|65|2|0.17
EVRG|Evergy, Inc.|Q|UT|Electric Utilities|74|1.5|0.17
NI|NiSource Inc.|N|UT|Multi-Utilities|42|4|0.17
PNW|Pinnacle West Capital Corporation|N|UT|Electric Utilities|90|1|0.18
AES|The AES Corporation|N|UT|Independent Power Producers|14|10|0.38
`);
