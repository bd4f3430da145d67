-- Segments (docs/product-rules.md, "Segments"): every lead's region, seniority, department,
-- company size and revenue read into fixed vocabularies (lib/segments/vocabularies.ts holds the
-- same values), and a rollup of sellable leads per combination that answers segment counts.
-- The mapping is SQL so that stored generated columns apply it to every insert path (import,
-- seed, tests) and this migration maps the leads already stored. The functions are PL/pgSQL with
-- exact spellings first: a million-row import mostly repeats a few spellings, and regular
-- expressions (PostgreSQL caches only a few dozen compiled ones) are the fallback.

-- The numbers in a size or revenue cell, averaged (a range's midpoint), each in units: "k",
-- "million", "$10M-$50M", "5,001-10,000", "$1-10 million" (a bare number takes the cell's last unit).
CREATE FUNCTION "facet_amount"(cell text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  WITH t AS (SELECT replace(lower(cell), ',', '') AS s),
  unit AS (
    SELECT (regexp_match(s, '\d\s*(thousand|million|billion|mm|bn|k|m|b)\M(?!.*\d\s*(thousand|million|billion|mm|bn|k|m|b)\M)'))[1] AS last
    FROM t
  )
  SELECT avg(m[1]::numeric * CASE coalesce(nullif(m[2], ''), unit.last)
      WHEN 'thousand' THEN 1e3 WHEN 'k' THEN 1e3
      WHEN 'million' THEN 1e6 WHEN 'mm' THEN 1e6 WHEN 'm' THEN 1e6
      WHEN 'billion' THEN 1e9 WHEN 'bn' THEN 1e9 WHEN 'b' THEN 1e9
      ELSE 1 END)
  FROM t, unit, regexp_matches(t.s, '(\d+(?:\.\d+)?)\s*(?:(thousand|million|billion|mm|bn|k|m|b)\M)?', 'g') AS m
$$;

-- Employees: "51-200", "5001-10000", "5000+" (more than 5,000), "<10", "Self-employed".
CREATE FUNCTION "facet_size"(company_size text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := lower(btrim(company_size));
  n numeric;
BEGIN
  CASE s
    WHEN '' THEN RETURN 'unknown';
    WHEN '1-10', '2-10', '0-10', '1-9' THEN RETURN '1-10';
    WHEN '11-50', '10-50', '10-49' THEN RETURN '11-50';
    WHEN '51-200', '50-200', '50-199' THEN RETURN '51-200';
    WHEN '201-500', '200-500', '200-499' THEN RETURN '201-500';
    WHEN '501-1000', '500-1000', '501-1,000', '500-999' THEN RETURN '501-1000';
    WHEN '1001-5000', '1,001-5,000', '1000-5000', '1000-4999' THEN RETURN '1001-5000';
    WHEN '5001-10000', '5,001-10,000', '5000+', '5,000+', '5001+', '10001+', '10,001+', '10000+', '10,000+' THEN RETURN '5001+';
    ELSE NULL;
  END CASE;
  IF s ~ '(self[- ]?employed|sole trader|freelanc|just me)' THEN RETURN '1-10'; END IF;
  n := facet_amount(s)
    + CASE WHEN s ~ '\+|or more|and above|plus' THEN 1 ELSE 0 END
    - CASE WHEN s ~ '^(<|less than|under|fewer than|up to)' THEN 1 ELSE 0 END;
  RETURN CASE
    WHEN n IS NULL THEN 'unknown'
    WHEN n <= 10 THEN '1-10'
    WHEN n <= 50 THEN '11-50'
    WHEN n <= 200 THEN '51-200'
    WHEN n <= 500 THEN '201-500'
    WHEN n <= 1000 THEN '501-1000'
    WHEN n <= 5000 THEN '1001-5000'
    ELSE '5001+' END;
END $$;

-- USD a year: "$10M-$50M", "<$1M", "$500M+", "$1B+", "$1-10 million", "2,500,000". A cell without
-- any unit whose numbers are all below 1,000 is in millions ("10-50"): no company is sold on a
-- revenue of $50.
CREATE FUNCTION "facet_revenue"(company_revenue text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := lower(btrim(company_revenue));
  n numeric;
BEGIN
  CASE s
    WHEN '' THEN RETURN 'unknown';
    WHEN '<$1m', '$0-$1m', 'less than $1m', 'under $1m' THEN RETURN '<1M';
    WHEN '$1m-$10m', '$1-10m', '$1m-10m', '$1m - $10m' THEN RETURN '1M-10M';
    WHEN '$10m-$50m', '$10-50m', '$10m-50m', '$10m - $50m' THEN RETURN '10M-50M';
    WHEN '$50m-$100m', '$50-100m', '$50m-100m', '$50m - $100m' THEN RETURN '50M-100M';
    WHEN '$100m-$500m', '$100-500m', '$100m-500m', '$100m - $500m' THEN RETURN '100M-500M';
    WHEN '$500m-$1b', '$500m+', '$500m - $1b' THEN RETURN '500M-1B';
    WHEN '$1b+', '$1b-$5b', '$1b - $5b', '$5b+', '$10b+', 'over $1b' THEN RETURN '1B+';
    ELSE NULL;
  END CASE;
  n := facet_amount(s);
  IF n < 1000 AND s !~ '\d\s*(thousand|million|billion|mm|bn|k|m|b)\M' THEN n := n * 1e6; END IF;
  IF s ~ '^(<|less than|under|up to)' THEN n := n / 2; END IF;
  RETURN CASE
    WHEN n IS NULL THEN 'unknown'
    WHEN n < 1e6 THEN '<1M'
    WHEN n < 1e7 THEN '1M-10M'
    WHEN n < 5e7 THEN '10M-50M'
    WHEN n < 1e8 THEN '50M-100M'
    WHEN n < 5e8 THEN '100M-500M'
    WHEN n < 1e9 THEN '500M-1B'
    ELSE '1B+' END;
END $$;

-- One seniority cell: "C-Level", "CXO", "Vice President", "Mid-Senior level", "Head", "Founder";
-- null when it names none.
CREATE FUNCTION "facet_seniority_cell"(cell text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := lower(btrim(cell));
BEGIN
  CASE s
    WHEN '' THEN RETURN NULL;
    WHEN 'owner', 'founder', 'partner', 'co-founder', 'cofounder' THEN RETURN 'owner';
    WHEN 'c-level', 'c level', 'clevel', 'cxo', 'c-suite', 'c suite', 'executive', 'chief' THEN RETURN 'c_level';
    WHEN 'vp', 'vice president', 'svp', 'evp' THEN RETURN 'vp';
    WHEN 'director', 'head', 'head of' THEN RETURN 'director';
    WHEN 'manager', 'management' THEN RETURN 'manager';
    WHEN 'senior', 'mid-senior level', 'lead' THEN RETURN 'senior';
    WHEN 'entry', 'entry level', 'entry-level', 'junior', 'intern', 'internship', 'associate' THEN RETURN 'entry';
    ELSE NULL;
  END CASE;
  RETURN CASE
    WHEN s ~ '\m(owner|founder|co-?founder|partner|proprietor|self-employed)\M' THEN 'owner'
    WHEN s ~ '\m(vp|svp|evp|avp|vice[- ]president)\M' THEN 'vp'
    WHEN s ~ '(c-?level|c-?suite|\mcxo\M|\mchief\M|\mc[eotfmi]o\M|\mexecutive\M|\mpresident\M)' THEN 'c_level'
    WHEN s ~ '\m(director|head|dir)\M' THEN 'director'
    WHEN s ~ '\m(manager|management|mgr|supervisor)\M' THEN 'manager'
    WHEN s ~ '\m(senior|sr|lead|staff|principal|mid[- ]?senior|mid[- ]level|experienced)\M' THEN 'senior'
    WHEN s ~ '\m(entry|junior|jr|intern|internship|trainee|graduate|associate|assistant|training|student)\M' THEN 'entry'
    END;
END $$;

-- A job title when the seniority cell is empty or unreadable: "Chief Technology Officer",
-- "VP of Engineering", "Founder & CEO", "Head of Product", "Senior Software Engineer".
CREATE FUNCTION "facet_seniority_title"(title text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := lower(btrim(title));
BEGIN
  IF s = '' THEN RETURN NULL; END IF;
  RETURN CASE
    WHEN s ~ '\m(owner|founder|co-?founder|proprietor|partner)\M' THEN 'owner'
    WHEN s ~ '\m(vp|svp|evp|avp|vice[- ]president)\M' THEN 'vp'
    WHEN s ~ '(\mchief\M.*\mofficer\M|\mc[eotfmi]o\M|\mciso\M|\mcro\M|\mcpo\M|^president\M)' THEN 'c_level'
    WHEN s ~ '\m(director|head)\M' THEN 'director'
    WHEN s ~ '\m(manager|supervisor)\M' THEN 'manager'
    WHEN s ~ '\m(senior|sr|lead|staff|principal)\M' THEN 'senior'
    WHEN s ~ '\m(junior|jr|intern|trainee|graduate|assistant|associate|coordinator)\M' THEN 'entry'
    END;
END $$;

CREATE FUNCTION "facet_seniority"(seniority text, job_title text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(facet_seniority_cell(seniority), facet_seniority_title(job_title), 'unknown') $$;

-- A department cell: "Human Resources", "Talent Acquisition", "Information Technology", ...; a
-- filled cell that names no department of the vocabulary is `other`, an empty one `unknown`.
CREATE FUNCTION "facet_department"(department text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := lower(btrim(department));
BEGIN
  CASE s
    WHEN '' THEN RETURN 'unknown';
    WHEN 'executive', 'c-suite', 'leadership' THEN RETURN 'executive';
    WHEN 'engineering', 'development', 'software development', 'r&d' THEN RETURN 'engineering';
    WHEN 'it', 'information technology' THEN RETURN 'it';
    WHEN 'product', 'product management' THEN RETURN 'product';
    WHEN 'sales', 'business development' THEN RETURN 'sales';
    WHEN 'marketing' THEN RETURN 'marketing';
    WHEN 'customer success', 'customer service', 'support' THEN RETURN 'customer_success';
    WHEN 'operations' THEN RETURN 'operations';
    WHEN 'finance', 'accounting' THEN RETURN 'finance';
    WHEN 'hr', 'human resources', 'people', 'talent acquisition' THEN RETURN 'hr';
    WHEN 'legal' THEN RETURN 'legal';
    WHEN 'other' THEN RETURN 'other';
    ELSE NULL;
  END CASE;
  RETURN CASE
    WHEN s ~ '\m(executive|executives|c-suite|leadership|founder|owner|board)\M' THEN 'executive'
    WHEN s ~ '\m(it|information technology|infosec|security|systems|infrastructure|helpdesk)\M' THEN 'it'
    WHEN s ~ '(\msales\M|business development|\mbd\M|account management|e-?commerce|revenue|partnerships|leasing)' THEN 'sales'
    WHEN s ~ '(engineering|\mdevelopment\M|\mr&d\M|\mresearch\M|software|\mdata\M|devops)' THEN 'engineering'
    WHEN s ~ '\mproduct' THEN 'product'
    WHEN s ~ '(customer|client services|\msupport\M|success)' THEN 'customer_success'
    WHEN s ~ '(marketing|\mbrand|growth|demand gen|communications|\mpr\M|public relations|content|\mdigital\M|advertising|creative)' THEN 'marketing'
    WHEN s ~ '(financ|accounting|\mtax\M|treasury|investment|asset management|\maudit\M|controller)' THEN 'finance'
    WHEN s ~ '(\mhr\M|human resources|talent|recruit|\mpeople\M|personnel|\mhcm\M)' THEN 'hr'
    WHEN s ~ '(legal|\mlaw\M|compliance|counsel|contracts)' THEN 'legal'
    WHEN s ~ '(operations|\mops\M|administration|\madmin\M|project|construction|estimating|property|facilities|logistics|supply chain|procurement|purchasing|health & safety|health and safety|manufacturing)' THEN 'operations'
    ELSE 'other' END;
END $$;

-- A UK county, city or nation to its ONS region; null when it is none of those listed.
CREATE FUNCTION "facet_uk_region"(place text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  p text := regexp_replace(replace(lower(btrim(place)), '&', 'and'), '\s+', ' ', 'g');
BEGIN
  CASE
    WHEN p IN ('london', 'greater london', 'city of london', 'westminster', 'croydon') THEN RETURN 'london';
    WHEN p IN ('kent', 'surrey', 'east sussex', 'west sussex', 'sussex', 'hampshire', 'berkshire', 'buckinghamshire', 'oxfordshire', 'isle of wight', 'brighton', 'brighton and hove', 'southampton', 'portsmouth', 'oxford', 'reading', 'milton keynes', 'slough', 'guildford', 'maidstone', 'canterbury', 'crawley', 'woking', 'basingstoke') THEN RETURN 'south_east';
    WHEN p IN ('cornwall', 'devon', 'dorset', 'somerset', 'wiltshire', 'gloucestershire', 'bristol', 'plymouth', 'exeter', 'bath', 'gloucester', 'cheltenham', 'bournemouth', 'poole', 'swindon', 'truro') THEN RETURN 'south_west';
    WHEN p IN ('essex', 'hertfordshire', 'bedfordshire', 'cambridgeshire', 'norfolk', 'suffolk', 'cambridge', 'norwich', 'ipswich', 'luton', 'peterborough', 'chelmsford', 'colchester', 'watford', 'st albans') THEN RETURN 'east_of_england';
    WHEN p IN ('west midlands', 'warwickshire', 'staffordshire', 'shropshire', 'herefordshire', 'worcestershire', 'birmingham', 'coventry', 'wolverhampton', 'stoke-on-trent', 'stoke on trent', 'worcester', 'hereford', 'telford', 'shrewsbury') THEN RETURN 'west_midlands';
    WHEN p IN ('east midlands', 'derbyshire', 'nottinghamshire', 'leicestershire', 'lincolnshire', 'northamptonshire', 'rutland', 'nottingham', 'leicester', 'derby', 'lincoln', 'northampton') THEN RETURN 'east_midlands';
    WHEN p IN ('yorkshire', 'west yorkshire', 'south yorkshire', 'north yorkshire', 'east yorkshire', 'east riding of yorkshire', 'yorkshire and the humber', 'leeds', 'sheffield', 'bradford', 'hull', 'kingston upon hull', 'york', 'wakefield', 'huddersfield', 'doncaster') THEN RETURN 'yorkshire_and_the_humber';
    WHEN p IN ('greater manchester', 'merseyside', 'lancashire', 'cheshire', 'cumbria', 'manchester', 'liverpool', 'preston', 'bolton', 'salford', 'stockport', 'warrington', 'chester', 'carlisle', 'blackpool', 'north west') THEN RETURN 'north_west';
    WHEN p IN ('tyne and wear', 'northumberland', 'county durham', 'durham', 'newcastle', 'newcastle upon tyne', 'sunderland', 'middlesbrough', 'gateshead', 'north east') THEN RETURN 'north_east';
    WHEN p IN ('wales', 'cymru', 'cardiff', 'swansea', 'newport', 'wrexham') THEN RETURN 'wales';
    WHEN p IN ('scotland', 'edinburgh', 'glasgow', 'aberdeen', 'dundee', 'inverness', 'stirling', 'perth') THEN RETURN 'scotland';
    WHEN p IN ('northern ireland', 'belfast', 'derry', 'londonderry', 'lisburn', 'county antrim', 'antrim', 'county down', 'armagh') THEN RETURN 'northern_ireland';
    ELSE RETURN NULL;
  END CASE;
END $$;

-- A US state's code or name to its two-letter code (the 50 states and DC); null for anything else.
CREATE FUNCTION "facet_us_state"(state text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  s text := regexp_replace(btrim(state), '\s+', ' ', 'g');
BEGIN
  IF upper(s) IN ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY') THEN RETURN upper(s); END IF;
  RETURN CASE lower(s)
    WHEN 'alabama' THEN 'AL'
    WHEN 'alaska' THEN 'AK'
    WHEN 'arizona' THEN 'AZ'
    WHEN 'arkansas' THEN 'AR'
    WHEN 'california' THEN 'CA'
    WHEN 'colorado' THEN 'CO'
    WHEN 'connecticut' THEN 'CT'
    WHEN 'delaware' THEN 'DE'
    WHEN 'district of columbia' THEN 'DC'
    WHEN 'florida' THEN 'FL'
    WHEN 'georgia' THEN 'GA'
    WHEN 'hawaii' THEN 'HI'
    WHEN 'idaho' THEN 'ID'
    WHEN 'illinois' THEN 'IL'
    WHEN 'indiana' THEN 'IN'
    WHEN 'iowa' THEN 'IA'
    WHEN 'kansas' THEN 'KS'
    WHEN 'kentucky' THEN 'KY'
    WHEN 'louisiana' THEN 'LA'
    WHEN 'maine' THEN 'ME'
    WHEN 'maryland' THEN 'MD'
    WHEN 'massachusetts' THEN 'MA'
    WHEN 'michigan' THEN 'MI'
    WHEN 'minnesota' THEN 'MN'
    WHEN 'mississippi' THEN 'MS'
    WHEN 'missouri' THEN 'MO'
    WHEN 'montana' THEN 'MT'
    WHEN 'nebraska' THEN 'NE'
    WHEN 'nevada' THEN 'NV'
    WHEN 'new hampshire' THEN 'NH'
    WHEN 'new jersey' THEN 'NJ'
    WHEN 'new mexico' THEN 'NM'
    WHEN 'new york' THEN 'NY'
    WHEN 'north carolina' THEN 'NC'
    WHEN 'north dakota' THEN 'ND'
    WHEN 'ohio' THEN 'OH'
    WHEN 'oklahoma' THEN 'OK'
    WHEN 'oregon' THEN 'OR'
    WHEN 'pennsylvania' THEN 'PA'
    WHEN 'rhode island' THEN 'RI'
    WHEN 'south carolina' THEN 'SC'
    WHEN 'south dakota' THEN 'SD'
    WHEN 'tennessee' THEN 'TN'
    WHEN 'texas' THEN 'TX'
    WHEN 'utah' THEN 'UT'
    WHEN 'vermont' THEN 'VT'
    WHEN 'virginia' THEN 'VA'
    WHEN 'washington' THEN 'WA'
    WHEN 'west virginia' THEN 'WV'
    WHEN 'wisconsin' THEN 'WI'
    WHEN 'wyoming' THEN 'WY'
    WHEN 'washington dc' THEN 'DC' WHEN 'washington d.c.' THEN 'DC' WHEN 'd.c.' THEN 'DC'
    END;
END $$;

-- A USA lead's state; a UK lead's county or nation, else its city.
CREATE FUNCTION "facet_region"(country "Country", state text, city text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT CASE country
    WHEN 'USA' THEN coalesce(facet_us_state(state), 'unknown')
    ELSE coalesce(facet_uk_region(state), facet_uk_region(city), 'unknown') END
$$;

ALTER TABLE "leads"
  ADD COLUMN "facet_region" TEXT NOT NULL GENERATED ALWAYS AS (facet_region(country, state, city)) STORED,
  ADD COLUMN "facet_seniority" TEXT NOT NULL GENERATED ALWAYS AS (facet_seniority(seniority, job_title)) STORED,
  ADD COLUMN "facet_department" TEXT NOT NULL GENERATED ALWAYS AS (facet_department(department)) STORED,
  ADD COLUMN "facet_size" TEXT NOT NULL GENERATED ALWAYS AS (facet_size(company_size)) STORED,
  ADD COLUMN "facet_revenue" TEXT NOT NULL GENERATED ALWAYS AS (facet_revenue(company_revenue)) STORED;

-- Sellable leads per category, country and combination of facets: a segment's count and each
-- facet's numbers are sums over these rows (a few thousand per category) instead of counts over
-- the leads. The triggers below keep it exact for every insert, delete and update, as
-- category_lead_days is kept.
CREATE TABLE "category_segments" (
    "category_id" UUID NOT NULL,
    "country" "Country" NOT NULL,
    "region" TEXT NOT NULL,
    "seniority" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "size" TEXT NOT NULL,
    "revenue" TEXT NOT NULL,
    "leads" INTEGER NOT NULL,

    CONSTRAINT "category_segments_pkey" PRIMARY KEY ("category_id","country","region","seniority","department","size","revenue")
);

ALTER TABLE "category_segments" ADD CONSTRAINT "category_segments_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "category_segments_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO category_segments AS s (category_id, country, region, seniority, department, size, revenue, leads)
  SELECT category_id, country, facet_region, facet_seniority, facet_department, facet_size, facet_revenue, count(*)::int
  FROM new_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (category_id, country, region, seniority, department, size, revenue)
    DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  RETURN NULL;
END $$;

CREATE FUNCTION "category_segments_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_segments s SET leads = s.leads - gone.leads
  FROM (SELECT category_id, country, facet_region, facet_seniority, facet_department, facet_size, facet_revenue,
               count(*)::int AS leads
        FROM old_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4, 5, 6, 7) gone
  WHERE (s.category_id, s.country, s.region, s.seniority, s.department, s.size, s.revenue)
      = (gone.category_id, gone.country, gone.facet_region, gone.facet_seniority, gone.facet_department,
         gone.facet_size, gone.facet_revenue);
  DELETE FROM category_segments s USING (SELECT DISTINCT category_id FROM old_rows) c
  WHERE s.category_id = c.category_id AND s.leads <= 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "category_segments_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose category, country, facets or sellability changed move between combinations.
  INSERT INTO category_segments AS s (category_id, country, region, seniority, department, size, revenue, leads)
  SELECT category_id, country, region, seniority, department, size, revenue, sum(leads)::int
  FROM (
    SELECT o.category_id, o.country, o.facet_region AS region, o.facet_seniority AS seniority,
           o.facet_department AS department, o.facet_size AS size, o.facet_revenue AS revenue, -1 AS leads
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(o.quarantined_at, o.email_status)
      AND (o.category_id, o.country, o.facet_region, o.facet_seniority, o.facet_department, o.facet_size,
           o.facet_revenue, lead_sellable(n.quarantined_at, n.email_status))
          IS DISTINCT FROM (n.category_id, n.country, n.facet_region, n.facet_seniority, n.facet_department,
           n.facet_size, n.facet_revenue, true)
    UNION ALL
    SELECT n.category_id, n.country, n.facet_region, n.facet_seniority, n.facet_department, n.facet_size,
           n.facet_revenue, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(n.quarantined_at, n.email_status)
      AND (n.category_id, n.country, n.facet_region, n.facet_seniority, n.facet_department, n.facet_size,
           n.facet_revenue, lead_sellable(o.quarantined_at, o.email_status))
          IS DISTINCT FROM (o.category_id, o.country, o.facet_region, o.facet_seniority, o.facet_department,
           o.facet_size, o.facet_revenue, true)
  ) delta
  GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(leads) <> 0
  ON CONFLICT (category_id, country, region, seniority, department, size, revenue)
    DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  DELETE FROM category_segments s WHERE s.leads <= 0
    AND s.category_id IN (SELECT category_id FROM old_rows UNION SELECT category_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER "leads_segments_insert" AFTER INSERT ON "leads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_segments_add"();
CREATE TRIGGER "leads_segments_delete" AFTER DELETE ON "leads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_segments_remove"();
CREATE TRIGGER "leads_segments_update" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_segments_move"();

INSERT INTO category_segments (category_id, country, region, seniority, department, size, revenue, leads)
SELECT category_id, country, facet_region, facet_seniority, facet_department, facet_size, facet_revenue, count(*)::int
FROM leads WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- The segment an order was bought for (lib/segments): null for the whole category.
ALTER TABLE "orders" ADD COLUMN "segment" JSONB;
