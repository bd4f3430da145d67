-- Region spellings real files use (docs/product-rules.md, "Segments"): every English ceremonial
-- county, unitary authority and London borough, every Scottish council area, Welsh principal area
-- and Northern Irish county and district, major towns, short forms ("Herts", "Lancs"), and the US
-- states' traditional and dotted abbreviations ("Calif.", "N.Y.", "W.Va.", "US-CA").
-- The functions keep their signatures (the stored generated column leads.facet_region calls them)
-- and only add spellings: whatever they mapped before maps the same. Each reads one normalised key
-- with string functions and a constant lookup, no regular expression: an import runs them for
-- every row.

-- A UK county, city, district or nation to its ONS region; null when it is none of those listed
-- ("England" too, so facet_region reads the city). Case, dots, apostrophes and other punctuation
-- aside; "County", "Co.", "City of", "The", "London Borough of" before, and ", City of",
-- ", County of", ", UK", ", England" after the name are ignored; a name ending in London, Scotland,
-- Wales or Northern Ireland is of that region ("East London", "Fife, Scotland").
CREATE OR REPLACE FUNCTION "facet_uk_region"(place text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  -- Separators a space; dots and apostrophes dropped ("Co.", "St. Albans", "King's Lynn").
  p text := btrim(translate(replace(lower(place), '&', ' and '), E',;-_/()\t\r\n.''’"', '          '));
BEGIN
  WHILE strpos(p, '  ') > 0 LOOP p := replace(p, '  ', ' '); END LOOP;
  IF strpos(p, ' ') > 0 THEN
    p := CASE
      WHEN p LIKE '% uk' OR p LIKE '% gb' THEN left(p, -3)
      WHEN p LIKE '% united kingdom' THEN left(p, -15)
      WHEN p LIKE '% great britain' THEN left(p, -14)
      WHEN p LIKE '% england' AND p <> 'east of england' THEN left(p, -8)
      WHEN p LIKE '% city of' THEN left(p, -8)
      WHEN p LIKE '% county of' THEN left(p, -10)
      WHEN p LIKE '% county borough' THEN left(p, -15)
      ELSE p END;
    p := CASE
      WHEN p LIKE 'county %' THEN substr(p, 8)
      WHEN p LIKE 'co %' THEN substr(p, 4)
      WHEN p LIKE 'city of %' THEN substr(p, 9)
      WHEN p LIKE 'city and county of %' THEN substr(p, 20)
      WHEN p LIKE 'the %' THEN substr(p, 5)
      WHEN p LIKE 'london borough of %' THEN substr(p, 19)
      WHEN p LIKE 'royal borough of %' THEN substr(p, 18)
      WHEN p LIKE 'metropolitan borough of %' THEN substr(p, 25)
      WHEN p LIKE 'borough of %' THEN substr(p, 12)
      ELSE p END;
  END IF;
  -- Each list is one hashed lookup. Names shared by two regions are left out ("Bangor", "Richmond").
  RETURN CASE
    WHEN p IN ('london', 'greater london', 'gtr london', 'central london', 'middlesex', 'middx',
      'barking and dagenham', 'barking', 'dagenham', 'barnet', 'bexley', 'bexleyheath', 'brent',
      'wembley', 'bromley', 'camden', 'croydon', 'ealing', 'southall', 'enfield', 'greenwich',
      'woolwich', 'hackney', 'shoreditch', 'hammersmith and fulham', 'hammersmith', 'fulham',
      'haringey', 'tottenham', 'harrow', 'havering', 'romford', 'hillingdon', 'uxbridge', 'hounslow',
      'islington', 'kensington and chelsea', 'kensington', 'chelsea', 'kingston upon thames',
      'kingston on thames', 'kingston', 'lambeth', 'brixton', 'lewisham', 'merton', 'wimbledon',
      'newham', 'redbridge', 'ilford', 'richmond upon thames', 'richmond on thames', 'twickenham',
      'southwark', 'sutton', 'tower hamlets', 'canary wharf', 'waltham forest', 'walthamstow',
      'wandsworth', 'westminster', 'mayfair', 'soho', 'holborn') THEN 'london'
    WHEN p IN ('south east', 'berkshire', 'berks', 'buckinghamshire', 'bucks', 'east sussex',
      'e sussex', 'west sussex', 'w sussex', 'sussex', 'hampshire', 'hants', 'isle of wight', 'iow',
      'kent', 'oxfordshire', 'oxon', 'surrey', 'bracknell forest', 'bracknell', 'brighton and hove',
      'brighton', 'hove', 'medway', 'milton keynes', 'portsmouth', 'reading', 'slough', 'southampton',
      'west berkshire', 'newbury', 'windsor and maidenhead', 'windsor', 'maidenhead', 'wokingham',
      'oxford', 'banbury', 'bicester', 'abingdon', 'didcot', 'witney', 'high wycombe', 'aylesbury',
      'amersham', 'canterbury', 'maidstone', 'ashford', 'dartford', 'gravesend', 'sevenoaks',
      'tunbridge wells', 'royal tunbridge wells', 'tonbridge', 'folkestone', 'dover', 'margate',
      'ramsgate', 'chatham', 'rochester', 'gillingham', 'sittingbourne', 'guildford', 'woking',
      'epsom', 'redhill', 'reigate', 'staines', 'camberley', 'farnham', 'leatherhead', 'weybridge',
      'crawley', 'horsham', 'worthing', 'chichester', 'bognor regis', 'eastbourne', 'hastings',
      'lewes', 'winchester', 'basingstoke', 'farnborough', 'aldershot', 'andover', 'eastleigh',
      'fareham', 'gosport', 'havant', 'fleet') THEN 'south_east'
    WHEN p IN ('south west', 'cornwall', 'isles of scilly', 'devon', 'dorset', 'gloucestershire',
      'glos', 'somerset', 'wiltshire', 'wilts', 'avon', 'bristol', 'bath and north east somerset',
      'bath and ne somerset', 'banes', 'north somerset', 'south gloucestershire', 'plymouth',
      'torbay', 'swindon', 'bournemouth christchurch and poole', 'bcp', 'bournemouth', 'poole',
      'christchurch', 'exeter', 'torquay', 'paignton', 'barnstaple', 'bath', 'gloucester',
      'cheltenham', 'stroud', 'cirencester', 'tewkesbury', 'truro', 'falmouth', 'newquay',
      'penzance', 'st austell', 'salisbury', 'chippenham', 'trowbridge', 'taunton', 'yeovil',
      'bridgwater', 'weston super mare', 'dorchester', 'weymouth') THEN 'south_west'
    WHEN p IN ('east of england', 'east anglia', 'bedfordshire', 'beds', 'central bedfordshire',
      'cambridgeshire', 'cambs', 'essex', 'hertfordshire', 'herts', 'norfolk', 'suffolk', 'bedford',
      'luton', 'dunstable', 'peterborough', 'southend on sea', 'southend', 'thurrock', 'grays',
      'cambridge', 'ely', 'huntingdon', 'st neots', 'chelmsford', 'colchester', 'basildon',
      'brentwood', 'harlow', 'braintree', 'clacton on sea', 'watford', 'st albans', 'saint albans',
      'stevenage', 'hemel hempstead', 'welwyn garden city', 'hatfield', 'hertford',
      'bishops stortford', 'hitchin', 'letchworth', 'letchworth garden city', 'norwich',
      'great yarmouth', 'kings lynn', 'ipswich', 'bury st edmunds', 'lowestoft') THEN 'east_of_england'
    WHEN p IN ('west midlands', 'w midlands', 'west mids', 'w mids', 'herefordshire', 'shropshire',
      'salop', 'shrops', 'staffordshire', 'staffs', 'warwickshire', 'warks', 'worcestershire', 'worcs',
      'hereford and worcester', 'birmingham', 'coventry', 'dudley', 'sandwell', 'west bromwich',
      'solihull', 'walsall', 'wolverhampton', 'sutton coldfield', 'stoke on trent', 'stoke',
      'telford and wrekin', 'telford', 'hereford', 'worcester', 'redditch', 'kidderminster',
      'bromsgrove', 'malvern', 'evesham', 'shrewsbury', 'oswestry', 'stafford', 'lichfield',
      'tamworth', 'cannock', 'burton upon trent', 'burton on trent', 'newcastle under lyme',
      'warwick', 'leamington spa', 'royal leamington spa', 'rugby', 'nuneaton',
      'stratford upon avon') THEN 'west_midlands'
    WHEN p IN ('east midlands', 'derbyshire', 'derbys', 'leicestershire', 'leics', 'lincolnshire',
      'lincs', 'northamptonshire', 'northants', 'north northamptonshire', 'west northamptonshire',
      'nottinghamshire', 'notts', 'rutland', 'derby', 'leicester', 'nottingham', 'lincoln',
      'northampton', 'chesterfield', 'buxton', 'matlock', 'ilkeston', 'loughborough', 'hinckley',
      'market harborough', 'melton mowbray', 'grantham', 'boston', 'stamford', 'spalding',
      'skegness', 'kettering', 'corby', 'wellingborough', 'daventry', 'mansfield', 'newark',
      'newark on trent', 'worksop', 'beeston', 'oakham') THEN 'east_midlands'
    WHEN p IN ('yorkshire and the humber', 'yorkshire and humber', 'yorkshire', 'yorks',
      'north yorkshire', 'n yorkshire', 'north yorks', 'n yorks', 'south yorkshire', 's yorkshire',
      'south yorks', 's yorks', 'west yorkshire', 'w yorkshire', 'west yorks', 'w yorks',
      'east yorkshire', 'e yorkshire', 'east yorks', 'e yorks', 'east riding of yorkshire',
      'east riding', 'humberside', 'humber', 'kingston upon hull', 'hull', 'york',
      'north lincolnshire', 'n lincolnshire', 'north lincs', 'north east lincolnshire',
      'ne lincolnshire', 'ne lincs', 'barnsley', 'doncaster', 'rotherham', 'sheffield', 'bradford',
      'calderdale', 'halifax', 'kirklees', 'huddersfield', 'dewsbury', 'batley', 'leeds',
      'wakefield', 'pontefract', 'castleford', 'keighley', 'harrogate', 'scarborough', 'whitby',
      'ripon', 'selby', 'skipton', 'northallerton', 'beverley', 'goole', 'bridlington', 'grimsby',
      'cleethorpes', 'scunthorpe') THEN 'yorkshire_and_the_humber'
    WHEN p IN ('north west', 'cheshire', 'ches', 'cheshire east', 'cheshire west and chester',
      'cumbria', 'cumberland', 'westmorland', 'westmorland and furness', 'greater manchester',
      'gtr manchester', 'gt manchester', 'lancashire', 'lancs', 'merseyside', 'manchester',
      'bolton', 'bury', 'oldham', 'rochdale', 'salford', 'stockport', 'tameside',
      'ashton under lyne', 'trafford', 'altrincham', 'stretford', 'wigan', 'liverpool', 'knowsley',
      'sefton', 'southport', 'bootle', 'st helens', 'wirral', 'birkenhead', 'halton', 'widnes',
      'runcorn', 'warrington', 'chester', 'crewe', 'macclesfield', 'wilmslow', 'northwich',
      'ellesmere port', 'blackburn with darwen', 'blackburn', 'darwen', 'blackpool', 'preston',
      'lancaster', 'morecambe', 'burnley', 'accrington', 'chorley', 'ormskirk', 'skelmersdale',
      'lytham st annes', 'carlisle', 'kendal', 'penrith', 'workington', 'whitehaven',
      'barrow in furness') THEN 'north_west'
    WHEN p IN ('north east', 'durham', 'northumberland', 'tyne and wear', 'tyneside', 'wearside',
      'teesside', 'tees valley', 'cleveland', 'darlington', 'hartlepool', 'middlesbrough',
      'redcar and cleveland', 'redcar', 'stockton on tees', 'stockton', 'billingham', 'thornaby',
      'newcastle upon tyne', 'newcastle', 'gateshead', 'north tyneside', 'south tyneside',
      'sunderland', 'south shields', 'north shields', 'tynemouth', 'wallsend', 'washington',
      'hexham', 'morpeth', 'blyth', 'cramlington', 'ashington', 'consett', 'chester le street',
      'bishop auckland', 'newton aycliffe', 'peterlee', 'seaham') THEN 'north_east'
    WHEN p IN ('wales', 'cymru', 'north wales', 'south wales', 'mid wales', 'west wales',
      'blaenau gwent', 'bridgend', 'caerphilly', 'cardiff', 'caerdydd', 'carmarthenshire',
      'ceredigion', 'conwy', 'denbighshire', 'flintshire', 'gwynedd', 'isle of anglesey',
      'anglesey', 'ynys mon', 'ynys môn', 'merthyr tydfil', 'merthyr', 'monmouthshire',
      'neath port talbot', 'newport', 'casnewydd', 'pembrokeshire', 'powys', 'rhondda cynon taf',
      'rhondda cynon taff', 'rhondda', 'swansea', 'abertawe', 'torfaen', 'vale of glamorgan',
      'wrexham', 'glamorgan', 'mid glamorgan', 'south glamorgan', 'west glamorgan', 'gwent',
      'dyfed', 'clwyd', 'aberystwyth', 'llanelli', 'carmarthen', 'haverfordwest', 'barry', 'neath',
      'port talbot', 'pontypridd', 'aberdare', 'ebbw vale', 'cwmbran', 'pontypool', 'abergavenny',
      'chepstow', 'monmouth', 'brecon', 'newtown', 'welshpool', 'llandudno', 'colwyn bay', 'rhyl',
      'mold', 'deeside', 'caernarfon', 'holyhead') THEN 'wales'
    WHEN p IN ('scotland', 'alba', 'aberdeen', 'aberdeen city', 'aberdeenshire', 'angus',
      'argyll and bute', 'argyll', 'bute', 'clackmannanshire', 'dumfries and galloway',
      'dumfriesshire', 'galloway', 'dundee', 'dundee city', 'east ayrshire', 'north ayrshire',
      'south ayrshire', 'ayrshire', 'east dunbartonshire', 'west dunbartonshire', 'dunbartonshire',
      'east lothian', 'midlothian', 'west lothian', 'lothian', 'lothians', 'edinburgh',
      'east renfrewshire', 'renfrewshire', 'falkirk', 'fife', 'glasgow', 'glasgow city',
      'highland', 'highlands', 'scottish highlands', 'inverclyde', 'moray', 'na h eileanan siar',
      'eilean siar', 'western isles', 'outer hebrides', 'hebrides', 'north lanarkshire',
      'n lanarkshire', 'south lanarkshire', 's lanarkshire', 'lanarkshire', 'orkney',
      'orkney islands', 'shetland', 'shetland islands', 'perth and kinross', 'perthshire',
      'kinross', 'scottish borders', 'borders', 'stirling', 'stirlingshire', 'strathclyde',
      'grampian', 'tayside', 'caithness', 'sutherland', 'ross and cromarty', 'ross shire',
      'inverness shire', 'kincardineshire', 'banffshire', 'berwickshire', 'roxburghshire',
      'inverness', 'perth', 'paisley', 'east kilbride', 'hamilton', 'motherwell', 'coatbridge',
      'airdrie', 'cumbernauld', 'livingston', 'bathgate', 'kirkcaldy', 'dunfermline', 'glenrothes',
      'st andrews', 'ayr', 'kilmarnock', 'irvine', 'greenock', 'clydebank', 'dumfries', 'elgin',
      'peterhead', 'fraserburgh', 'arbroath', 'montrose', 'fort william', 'oban', 'galashiels',
      'musselburgh', 'kirkwall', 'lerwick', 'stornoway', 'wick', 'thurso') THEN 'scotland'
    WHEN p IN ('northern ireland', 'n ireland', 'ni', 'ulster', 'antrim', 'armagh', 'down',
      'fermanagh', 'londonderry', 'derry', 'tyrone', 'belfast', 'antrim and newtownabbey',
      'newtownabbey', 'ards and north down', 'north down', 'ards', 'newtownards',
      'armagh city banbridge and craigavon', 'banbridge', 'craigavon', 'portadown', 'lurgan',
      'causeway coast and glens', 'coleraine', 'ballymoney', 'limavady', 'portrush',
      'derry city and strabane', 'derry city', 'strabane', 'fermanagh and omagh', 'omagh',
      'enniskillen', 'lisburn and castlereagh', 'lisburn', 'castlereagh', 'mid and east antrim',
      'ballymena', 'carrickfergus', 'larne', 'mid ulster', 'cookstown', 'dungannon', 'magherafelt',
      'newry mourne and down', 'newry', 'downpatrick', 'holywood') THEN 'northern_ireland'
    WHEN p LIKE '% london' THEN 'london'
    WHEN p LIKE '% scotland' THEN 'scotland'
    WHEN p LIKE '% wales' AND p <> 'new south wales' THEN 'wales'
    WHEN p LIKE '% northern ireland' THEN 'northern_ireland'
    END;
END $$;

-- A US state's code, name or abbreviation to its two-letter code (the 50 states and DC); null for
-- anything else. Case, spaces, dots and other punctuation aside ("N.Y.", "Washington, D.C.", "W Va"),
-- and an ISO 3166-2 "US-" before the code.
CREATE OR REPLACE FUNCTION "facet_us_state"(state text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := translate(lower(state), E' ,;-_/()\t\r\n.''’ʻ"', '');
BEGIN
  IF length(s) = 4 AND left(s, 2) = 'us' THEN s := right(s, 2); END IF;
  IF s IN ('al', 'ak', 'az', 'ar', 'ca', 'co', 'ct', 'de', 'dc', 'fl', 'ga', 'hi', 'id', 'il', 'in',
    'ia', 'ks', 'ky', 'la', 'me', 'md', 'ma', 'mi', 'mn', 'ms', 'mo', 'mt', 'ne', 'nv', 'nh', 'nj',
    'nm', 'ny', 'nc', 'nd', 'oh', 'ok', 'or', 'pa', 'ri', 'sc', 'sd', 'tn', 'tx', 'ut', 'vt', 'va',
    'wa', 'wv', 'wi', 'wy') THEN
    RETURN upper(s);
  END IF;
  -- One lookup (a binary search over the keys) whatever the spelling.
  RETURN '{
    "alabama": "AL", "ala": "AL", "alaska": "AK", "arizona": "AZ", "ariz": "AZ",
    "arkansas": "AR", "ark": "AR", "california": "CA", "calif": "CA", "cal": "CA", "cali": "CA",
    "colorado": "CO", "colo": "CO", "connecticut": "CT", "conn": "CT", "delaware": "DE", "del": "DE",
    "districtofcolumbia": "DC", "distofcolumbia": "DC", "washingtondc": "DC",
    "florida": "FL", "fla": "FL", "georgia": "GA", "hawaii": "HI", "idaho": "ID",
    "illinois": "IL", "ill": "IL", "indiana": "IN", "ind": "IN", "iowa": "IA",
    "kansas": "KS", "kans": "KS", "kan": "KS", "kentucky": "KY", "louisiana": "LA", "maine": "ME",
    "maryland": "MD", "massachusetts": "MA", "mass": "MA", "michigan": "MI", "mich": "MI",
    "minnesota": "MN", "minn": "MN", "mississippi": "MS", "miss": "MS", "missouri": "MO",
    "montana": "MT", "mont": "MT", "nebraska": "NE", "nebr": "NE", "neb": "NE",
    "nevada": "NV", "nev": "NV", "newhampshire": "NH", "newjersey": "NJ",
    "newmexico": "NM", "nmex": "NM", "newyork": "NY", "newyorkstate": "NY",
    "northcarolina": "NC", "ncarolina": "NC", "northdakota": "ND", "ndak": "ND", "ndakota": "ND",
    "ohio": "OH", "oklahoma": "OK", "okla": "OK", "oregon": "OR", "ore": "OR", "oreg": "OR",
    "pennsylvania": "PA", "penn": "PA", "penna": "PA", "rhodeisland": "RI",
    "southcarolina": "SC", "scarolina": "SC", "southdakota": "SD", "sdak": "SD", "sdakota": "SD",
    "tennessee": "TN", "tenn": "TN", "texas": "TX", "tex": "TX", "utah": "UT", "vermont": "VT",
    "virginia": "VA", "washington": "WA", "wash": "WA", "washingtonstate": "WA",
    "westvirginia": "WV", "wva": "WV", "wvirginia": "WV", "wisconsin": "WI", "wis": "WI",
    "wisc": "WI", "wyoming": "WY", "wyo": "WY"
  }'::jsonb ->> s;
END $$;

-- The leads stored before: those whose region the functions now read otherwise (all were
-- `unknown`). Updating the state recomputes the generated column; the statement triggers on leads
-- move them between the rollup's rows and bump the catalogue version.
UPDATE "leads" SET "state" = "state"
WHERE "facet_region" IS DISTINCT FROM facet_region("country", "state", "city");
