import { parseUniverse } from './types';

/** Large Toronto Stock Exchange companies (prices in CAD). */
export const TSX_STOCKS = parseUniverse(`
RY.TO|Royal Bank of Canada|T|FN|Banks|205|5|0.16
TD.TO|The Toronto-Dominion Bank|T|FN|Banks|110|8|0.18
BNS.TO|The Bank of Nova Scotia|T|FN|Banks|90|6|0.18
BMO.TO|Bank of Montreal|T|FN|Banks|175|3|0.2
CM.TO|Canadian Imperial Bank of Commerce|T|FN|Banks|112|4|0.18
NA.TO|National Bank of Canada|T|FN|Banks|150|1.5|0.18
MFC.TO|Manulife Financial Corporation|T|FN|Life Insurance|47|7|0.22
SLF.TO|Sun Life Financial Inc.|T|FN|Life Insurance|84|2|0.2
GWO.TO|Great-West Lifeco Inc.|T|FN|Life Insurance|56|1.5|0.18
POW.TO|Power Corporation of Canada|T|FN|Life Insurance|62|2|0.18
IFC.TO|Intact Financial Corporation|T|FN|Property & Casualty Insurance|285|0.5|0.18
FFH.TO|Fairfax Financial Holdings Limited|T|FN|Property & Casualty Insurance|2400|0.05|0.24
BN.TO|Brookfield Corporation|T|FN|Asset Management|92|3|0.3
BAM.TO|Brookfield Asset Management Ltd.|T|FN|Asset Management|78|1.5|0.3
X.TO|TMX Group Limited|T|FN|Financial Exchanges|52|0.5|0.2
ENB.TO|Enbridge Inc.|T|EN|Oil & Gas Storage & Transportation|67|7|0.17
TRP.TO|TC Energy Corporation|T|EN|Oil & Gas Storage & Transportation|72|3|0.2
SU.TO|Suncor Energy Inc.|T|EN|Integrated Oil & Gas|58|6|0.28
CNQ.TO|Canadian Natural Resources Limited|T|EN|Oil & Gas Exploration & Production|45|10|0.3
CVE.TO|Cenovus Energy Inc.|T|EN|Integrated Oil & Gas|24|8|0.34
IMO.TO|Imperial Oil Limited|T|EN|Integrated Oil & Gas|120|1|0.28
PPL.TO|Pembina Pipeline Corporation|T|EN|Oil & Gas Storage & Transportation|54|2|0.2
TOU.TO|Tourmaline Oil Corp.|T|EN|Oil & Gas Exploration & Production|62|1.5|0.3
ARX.TO|ARC Resources Ltd.|T|EN|Oil & Gas Exploration & Production|26|3|0.32
CCO.TO|Cameco Corporation|T|EN|Coal & Consumable Fuels|115|2|0.45
SHOP.TO|Shopify Inc.|T|IT|Internet Services & Infrastructure|220|2|0.55
CSU.TO|Constellation Software Inc.|T|IT|Software|4000|0.04|0.28
OTEX.TO|Open Text Corporation|T|IT|Software|48|0.8|0.28
GIB-A.TO|CGI Inc.|T|IT|IT Services|130|0.6|0.2
DSG.TO|The Descartes Systems Group Inc.|T|IT|Software|130|0.3|0.3
CLS.TO|Celestica Inc.|T|IT|Electronic Manufacturing Services|400|1.5|0.6
CNR.TO|Canadian National Railway Company|T|IN|Railroads|135|1.5|0.2
CP.TO|Canadian Pacific Kansas City Limited|T|IN|Railroads|105|2|0.22
WCN.TO|Waste Connections, Inc.|T|IN|Environmental Services|250|0.4|0.18
TRI.TO|Thomson Reuters Corporation|T|IN|Research & Consulting Services|230|0.5|0.22
WSP.TO|WSP Global Inc.|T|IN|Construction & Engineering|280|0.3|0.22
CAE.TO|CAE Inc.|T|IN|Aerospace & Defense|40|1|0.32
TFII.TO|TFI International Inc.|T|IN|Cargo Ground Transportation|125|0.5|0.32
AC.TO|Air Canada|T|IN|Passenger Airlines|19|3|0.42
STN.TO|Stantec Inc.|T|IN|Construction & Engineering|155|0.3|0.24
ATD.TO|Alimentation Couche-Tard Inc.|T|ST|Food Retail|72|2|0.22
L.TO|Loblaw Companies Limited|T|ST|Food Retail|58|1.5|0.18
DOL.TO|Dollarama Inc.|T|CD|Broadline Retail|190|0.8|0.24
MRU.TO|Metro Inc.|T|ST|Food Retail|100|0.6|0.16
WN.TO|George Weston Limited|T|ST|Food Retail|90|0.4|0.18
SAP.TO|Saputo Inc.|T|ST|Packaged Foods|34|0.8|0.25
QSR.TO|Restaurant Brands International Inc.|T|CD|Restaurants|95|1|0.24
CTC-A.TO|Canadian Tire Corporation, Limited|T|CD|Broadline Retail|165|0.3|0.26
GIL.TO|Gildan Activewear Inc.|T|CD|Apparel & Luxury|80|0.6|0.3
MG.TO|Magna International Inc.|T|CD|Auto Parts|65|1|0.32
NTR.TO|Nutrien Ltd.|T|MT|Fertilizers & Agricultural Chemicals|82|1.5|0.28
AEM.TO|Agnico Eagle Mines Limited|T|MT|Gold|230|2|0.38
ABX.TO|Barrick Mining Corporation|T|MT|Gold|45|8|0.4
WPM.TO|Wheaton Precious Metals Corp.|T|MT|Precious Metals & Minerals|145|1|0.35
FNV.TO|Franco-Nevada Corporation|T|MT|Gold|280|0.5|0.3
TECK-B.TO|Teck Resources Limited|T|MT|Diversified Metals & Mining|58|3|0.38
FM.TO|First Quantum Minerals Ltd.|T|MT|Copper|30|3|0.5
K.TO|Kinross Gold Corporation|T|MT|Gold|35|8|0.45
IVN.TO|Ivanhoe Mines Ltd.|T|MT|Diversified Metals & Mining|14|4|0.5
CCL-B.TO|CCL Industries Inc.|T|MT|Paper & Plastic Packaging|80|0.4|0.2
BCE.TO|BCE Inc.|T|CS|Telecom Services|33|4|0.22
T.TO|TELUS Corporation|T|CS|Telecom Services|21|5|0.2
RCI-B.TO|Rogers Communications Inc.|T|CS|Telecom Services|52|2|0.24
FTS.TO|Fortis Inc.|T|UT|Electric Utilities|72|1.5|0.14
EMA.TO|Emera Incorporated|T|UT|Electric Utilities|66|1|0.15
H.TO|Hydro One Limited|T|UT|Electric Utilities|52|1|0.14
AQN.TO|Algonquin Power & Utilities Corp.|T|UT|Multi-Utilities|8|3|0.3
CAR-UN.TO|Canadian Apartment Properties Real Estate Investment Trust|T|RE|Residential REITs|42|0.6|0.22
REI-UN.TO|RioCan Real Estate Investment Trust|T|RE|Retail REITs|19|1.2|0.2
GSY.TO|goeasy Ltd.|T|FN|Consumer Finance|180|0.1|0.35
`);
