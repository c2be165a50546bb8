// Small, general word lists the extractor and matcher lean on. None of them names the brands of any
// evaluation set: they hold function words, label and category words, platforms, stores, review
// sources, standards, places and given names, in English and Spanish. Entries are folded keys
// (lower case, no diacritics), compared against `foldWord` output.

function wordSet(...chunks: string[]): ReadonlySet<string> {
  const words = new Set<string>();
  for (const chunk of chunks) {
    for (const word of chunk.split(/[\s,]+/u)) {
      if (word !== '') words.add(word.replace(/_/gu, ' '));
    }
  }
  return words;
}

/** Lower-cases and strips diacritics and curly apostrophes, so lexicon look-ups ignore them. */
export function foldWord(word: string): string {
  // Plain ASCII needs no Unicode normalisation, and it is nearly every word.
  if (/^[\x00-\x7F]*$/u.test(word)) return word.toLowerCase();
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2018\u2019\u02BC]/gu, "'")
    .toLowerCase();
}

/** Words that never make a name on their own: articles, pronouns, conjunctions, discourse words, imperatives. */
export const FUNCTION_WORDS = wordSet(
  // English grammar words
  `a an the this that these those there here it its it's i i'm i'd i've i'll me my mine we we're we've our ours
   you you're you'd you've you'll your yours he she they they're their them his her him who whom whose which what
   whatever whichever whoever when where why how if then than so as at by for from in into of off on onto out over
   per to up upon with within without about above after against along among around before behind below beneath
   beside besides between beyond down during except inside near outside since through throughout till toward towards
   under underneath until unlike via vs versus and or but nor yet both either neither not no yes yeah ok okay sure
   all any each every few many more most much other others some such own same just only also even still too very
   quite rather really almost already always never often sometimes usually generally typically mostly mainly
   especially ideally personally honestly overall ultimately finally first firstly second secondly third lastly
   next meanwhile otherwise instead however therefore thus hence though although while whereas unless because
   whether plus minus like unlike anyway besides alternatively additionally similarly likewise meanwhile again
   once twice is are was were be been being am do does did done doing have has had having can could may might
   must shall should will would let lets let's don't doesn't isn't aren't won't can't couldn't shouldn't wouldn't
   hi hello hey thanks thank please welcome sorry oh`,
  `today tomorrow tonight yesterday everyone everything everybody someone something nobody nothing anyone
   anything`,
  // Spanish grammar words and frequent sentence openers
  `el la los las lo un una unos unas y e o u ni pero sino si no ya que quien quienes cual cuales cuyo donde cuando
   como porque pues aunque mientras segun sobre bajo ante tras durante mediante hacia hasta desde entre sin con para
   por de del al en a su sus tu tus mi mis nuestro nuestra nuestros nuestras vuestro este esta estos estas ese esa
   esos esas aquel aquella esto eso aquello es son era fue ser estar esta estan hay tiene tienen puede pueden
   muy mas menos tambien tampoco ademas incluso solo todo toda todos todas cada otro otra otros otras mismo misma
   algo alguien nada nadie cualquier cualquiera bastante mucho mucha muchos muchas poco poca pocos pocas tan tanto
   asi aqui alli ahi hoy ayer manana siempre nunca casi luego entonces despues antes primero segundo tercero
   yo tu usted ustedes nosotros ellos ellas le les me te se nos hola gracias vale pues ojo`,
);

/**
 * Imperatives that open advice sentences ("Start with…", "Fly TAP…"): dropped from the front of a
 * run at a sentence start, but kept inside names ("Just Eat", "Go Daddy").
 */
export const IMPERATIVE_VERBS = wordSet(
  `start begin try get go pick choose check use pair run stay take look consider avoid skip buy compare read ask
   call keep make find set install download sign book visit order see note remember expect think know want need
   plan budget shop test add opt stick head save spend wait watch listen learn follow tell give bring open
   search filter join switch upgrade downgrade contact reserve fly eat rent ride hire subscribe drink cook swap
   sell stream borrow pay apply invest bank travel move prueba usa elige compara evita busca instala pide
   considera mira`,
);

/**
 * Label, heading and category words: the vocabulary of "Best Budget Pick", "Key Features",
 * "Running Shoes", "Project Management Software". A candidate made only of these (plus function
 * words and numbers) is a label, not a name.
 */
export const GENERIC_WORDS = wordSet(
  `best top great good better ideal perfect excellent solid strong favorite favourite popular recommended
   overall budget cheap cheapest affordable value premium luxury pick picks choice choices option options
   alternative alternatives runner-up runners-up honorable honourable mention mentions also consider considered
   upgrade splurge winner winners editor editor's staff our my your quick short summary conclusion verdict
   bottom line tl;dr tldr takeaway takeaways note notes tip tips pro pros con cons advantage advantages
   disadvantage disadvantages drawback drawbacks downside downsides upside upsides benefit benefits caveat caveats
   warning warnings key feature features highlight highlights spec specs specification specifications detail
   details overview comparison compare compared table chart ranking rankings rank rating ratings score scores
   review reviews price prices pricing cost costs fee fees plan plans tier tiers free paid trial subscription
   subscriptions monthly annual yearly lifetime starter basic standard plus enterprise business personal family
   team teams individual student students support customer customers service services help setup installation
   warranty returns shipping delivery availability performance quality design build comfort fit size sizes
   weight battery life durability stability noise speed accuracy safety security privacy ease use usage
   interface ui ux app apps tool tools software platform platforms product products brand brands model models
   device devices option other others misc miscellaneous general extra extras bonus final thoughts thought
   why what how when where who which step steps option guide guidance suggestion suggestions recommendation
   recommendations advice faq faqs question questions answer answers example examples e.g i.e etc category
   categories type types kind kinds main use case cases must-have must-haves must nice-to-have nice-to-haves
   need needs want wants look looking know consider considering avoid skip watch choose choosing buy buying
   important things thing factors factor criteria checklist red flags flag ways way method methods approach
   option alternative range height width depth stats data source sources update updates version versions
   new old latest classic original modern simple easy hard advanced beginner beginners intermediate expert
   experts professional technical essentials pro-grade entry-level entry level mid-range midrange high-end high end low-end
   small medium large big mini compact portable light lightweight heavy heavy-duty consideration
   considerations breakdown recap reminder reminders disclaimer sources source references reference resources
   resource next take quick-take bonus extras honorable-mentions mentions shortlist lineup roundup`,
  // common product categories and descriptors that get title-cased in labels
  `laptop laptops notebook notebooks computer computers desktop desktops tablet tablets phone phones smartphone
   smartphones watch watches smartwatch smartwatches tracker trackers headphones earbuds speaker speakers tv tvs
   television televisions monitor monitors camera cameras router routers printer printers keyboard keyboards
   mouse mice charger chargers cable cables case cases vacuum vacuums purifier purifiers mattress mattresses
   pillow pillows desk desks chair chairs sofa bed beds shoes shoe sneakers boots boot jacket jackets clothing
   apparel skincare makeup cosmetics shampoo sunscreen supplement supplements vitamins food snacks coffee tea
   wine beer car cars suv suvs truck trucks bike bikes ebike ebikes scooter scooters insurance bank banks banking
   card cards credit debit loan loans mortgage account accounts checking savings investing investment
   investments broker brokers hotel hotels restaurant restaurants bar bars cafe cafes shop shops store stores
   airline airlines flight flights hostel hostels apartment apartments gym gyms course courses class classes
   school schools university universities hosting host hosts server servers database databases analytics
   marketing sales crm erp hr hris payroll accounting invoicing email newsletter website websites site sites
   ecommerce e-commerce project projects management manager managers task tasks tracking time editing editor
   editors video videos audio music photo photos streaming game games gaming running hiking cycling travel
   fitness health wellness meditation sleep language languages learning coding programming design writing
   security home smart kitchen cooking baby kids pets pet dog dogs cat cats outdoor outdoors indoor garden
   office work remote enterprise startup startups agency agencies small-business smb`,
  // Spanish labels and categories
  `mejor mejores opcion opciones alternativa alternativas recomendacion recomendaciones consejo consejos nota
   notas precio precios coste costes costo costos plan planes gratis gratuito gratuita pago resumen conclusion
   ventaja ventajas desventaja desventajas pros contras caracteristicas caracteristica calidad valor economico
   economica barato barata ideal ideales principiantes soporte servidores servidor hosting tienda tiendas app
   aplicacion aplicaciones herramienta herramientas marca marcas modelo modelos producto productos servicio
   servicios relacion calidad-precio uso tipo tipos categoria categorias paso pasos guia`,
);

/**
 * A broad list of everyday English and Spanish words. A single capitalised word from it, met only
 * where capitals are automatic (a sentence start, a title), is not taken as a name without more
 * evidence; a brand spelt like one of them ("Notion", "Square") is matched only where used as a name.
 */
export const COMMON_WORDS = wordSet(
  `ability able access account act action active activity actual add address adult advance advantage adventure
   age agent agreement air alarm alert alone amazing amount analysis angle animal answer apple application
   area arm army art article artist aspect asset attention audience author auto autumn average award aware
   baby back background bad bag balance ball band base basis basket bath battle beach bear beat beautiful beauty
   bed beginning behavior being belief bell belt benefit bill bird birth bit bite black blade blank block blood
   blue board boat body bold bolt bone bonus book boost border boss bottle bottom box brain branch brave bread
   break breakfast brick bridge bright brilliant broad brother brown brush bubble buck bug builder building
   bunch burn bus business butter button buyer buyers cabin cable cake calendar call calm camp campaign canvas
   cap capital captain car card care career carpet carrier case cash cast castle cat catch cause cell center
   central chain chair challenge champion chance change channel chapter character charge charm chart chase cheap
   check cheese chef chest chicken chief child chime chip choice church circle citizen city claim class classic
   clean clear clerk click client climate clock close closet cloud club coach coast coat code coffee coin cold
   collection college color colour column combination comfort command comment commerce commission common
   community company comparison complete complex computer concept concert condition connection content contest
   context contract control cook cookie cool copper copy core corner cost cotton couch count counter country
   county couple courage course court cousin cove cover craft crash cream creative credit crew crop cross crowd
   crown cube culture cup current curve customer cycle daily damage dance danger dark dash data date daughter
   day dead deal dealer dear death debate debt decision deck deep deer degree delay delight delivery demand
   dental depth design desk detail developer device diamond diet difference digital dinner direct direction
   director dirt discord discount discovery dish display distance district dive division doctor document dog
   dollar door dot double dough draft drag drama draw dream dress drift drink drive driver drop drum dry duck
   dust duty eagle early earth ease east echo edge editor education effect effort egg element elevator elite
   email emergency empire employee end enemy energy engine engineer entry envelope equal equipment error escape
   essay estate event evidence exam example exchange exercise expert explorer express extra eye face fact factor
   factory fair faith fall family fan farm fashion fast father fault favor fear feature fee feedback feeling
   fellow female fence festival fiber field fight figure file film filter final finance finding fine finger
   finish fire firm fish fit fix flag flame flash fleet flight floor flow flower fly focus fold folk food foot
   force forest form formula fort fortune forum forward foundation fox frame free freedom fresh friend front
   fruit fuel fun function fund future galaxy game gap garage garden gas gate gear general gift girl glass
   global glory goal gold golden good grace grade grain grand grant graph grass gravity great green grid ground
   group growth guard guess guest guide gulf habit hair half hall hand handle harbor hardware harmony harvest
   hat head health heart heat heaven height hello help hero high highway hill hint history hit hive hold hole
   holiday home honey hope horizon horse host hot hour house human hunt ice idea image impact income index
   industry infinity influence information ink input insight inspiration instance insurance intelligence
   interest internet interview iron island issue item jacket jazz jet job join joint journal journey joy judge
   juice jump junior jury justice keeper key kid kind king kitchen kite knife knight label labor lake lamp land
   language laser late launch law lawn layer lead leader leaf league lean learning leather left legacy legend
   lemon lesson letter level liberty library license life lift light lime limit line linear link lion liquid
   list live living load loan local lock lodge logic long loom loop lord loss lot love low luck lunch machine
   magic mail main maker male mall man manager map marble march mark market marketing mason master match
   material matter meal measure meat media medium meeting member memory mention menu mercury merit message
   metal method middle mile milk mill mind mine mint minute mirror mission mix mode model moment money monitor
   month mood moon morning mother motion motor mount mountain mouse mouth move movie music nail name nation
   native nature need neon nest network news night noble node noise north note notice notion novel number nurse
   oak object ocean offer office officer oil open opera operation opinion optimal option orange orbit order
   organic origin outcome outlet owner pace pack package page pain paint pair palace palm panel paper parent
   park part partner party pass passage passion past patch path patient pattern pause pay peace peak pearl pen
   people pepper percent period person pet phase phone photo piano picture piece pilot pine pink pipe pitch
   place plain plan plane planet plant plate platform play player plaza pleasure plenty plot pocket poem point
   polar police policy pool pop port position post pot potato pound power practice press pressure price pride
   prime print priority prize problem process produce product profile profit program progress progressive
   project promise proof property prospect pulse pump purple purpose puzzle quality quarter queen question
   quick quiet race radio rain rainbow ramp range rank rate ratio raw reach reader reading real reason record
   red reef reference region relief remote rent report republic research reserve resource response rest
   result return revolution reward rhythm rice rich ride right ring rise risk river road rock role roll roof
   room root rose round route row royal rule rush safe safety sail salt sample sand saving scale scene school
   science score screen sea season seat second secret section sector security seed self sense series service
   session shadow shape share sharp shell shelter shield shift shine ship shirt shoe shop shot shoulder show
   side sight sign signal silver simple single sister site size skill skin sky slack sleep slice slide smart
   smile smoke snap snow soap social society soft software soil solar solid solution song sound source south
   space spark speaker special speed spirit split sport spot spring square stable staff stage stake stamp stand
   standard star start state station status steel step stick stock stone stop storage store storm story stream
   street strength stripe structure student studio style subject success sugar suit summer summit sun super
   supply support surface surprise survey sweet swift symbol system table tail talent talk tank target task
   taste tax tea teacher team tech technology temple term test text theme theory thread threshold ticket tide
   tiger timber time title toast today token tone tool tooth top topic total touch tour tower town toy track
   trade traffic trail train training transfer transport travel treasure treat tree trend trial tribe trick
   trip truck true trust truth turn twist type union unit unity universe update upper urban user valley value
   van vanguard vault vehicle venture version victory video view village vision visible visit voice volume
   vote voyage wagon wake wall war warm warning wash watch water wave way wealth weather web week weight welcome
   well west wheel white whole wild wind window wine wing winter wire wise wish wolf woman wonder wood word
   work worker world worth wrap writer yard year yellow yield young youth zero zone zoom`,
  `accessible active amazing annual automatic available awesome basic better big bold brief busy careful
   certain cheap classic clean clear clever close comfortable common complete cool cozy crisp critical cute
   deep different difficult digital direct dirty double dry due easy effective efficient empty entire equal
   essential exact excellent expensive extra fair famous fancy fast favorite fine firm flat flexible fluent
   foreign formal fresh friendly full funny general gentle giant global golden grand happy hard healthy heavy
   helpful high honest huge ideal important incredible independent instant intense interesting large late
   legendary light little live local long loud lovely low lucky main major massive mild minor mobile modern
   natural neat necessary new nice normal obvious official old only open ordinary original other overall
   perfect personal plain pleasant polished popular portable positive possible powerful practical premium
   pretty primary private professional proper proud public pure quick quiet rare ready real recent regular
   reliable remote rich right rough round rugged safe scary secure serious serene sharp short silent similar
   simple single slim slow small smart smooth soft solid special spicy stable standard steady steep sticky
   still straight strange strong stylish successful sudden sunny super sure sweet tall terrible thick thin tiny
   tired total tough traditional true typical ultimate unique universal unusual upper urgent useful usual
   valuable various vast visible vital warm waterproof weak wealthy weird wet whole wide wild wise wonderful
   worried worth wrong young`,
  // Spanish everyday words that open sentences or get title-cased
  `excelente bueno buena buenos buenas malo mala gran grande grandes pequeno pequena nuevo nueva viejo ideal
   perfecto perfecta facil dificil rapido rapida lento lenta caro cara barato barata comodo comoda seguro
   segura precio calidad servicio tienda marca empresa empresas negocio negocios casa cocina comida viaje
   ciudad pais mundo dia semana mes ano tiempo trabajo vida persona personas gente familia cliente clientes
   usuario usuarios cuenta tarjeta banco dinero pago envio entrega pedido pedidos oferta ofertas descuento
   consejo opcion opciones recomendacion resumen conclusion nota importante principal rapido sencillo
   cocinar cocina robot hotel restaurante bar playa montana calle plaza centro norte sur este oeste`,
  // weekdays and months: always capitalised in English, so capitals prove nothing
  `monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
   september october november december lunes martes miercoles jueves viernes sabado domingo enero febrero
   marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre`,
);

/** Weekdays and months: written with a capital in ordinary prose, so a capital is no evidence of a name. */
export const CALENDAR_WORDS = wordSet(
  `monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
   september october november december lunes martes miercoles jueves viernes sabado domingo enero febrero
   marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre`,
);

/** Operating systems, devices, assistants, social networks and CMSs that products run on or plug into. */
export const PLATFORM_NAMES = wordSet(
  `iphone iphones ipad ipads mac macs macbook macbooks imac macos ios ipados watchos tvos visionos windows
   android linux ubuntu chromeos chromebook chromebooks chrome safari firefox edge alexa siri cortana
   google_assistant homekit apple_homekit google_home smartthings matter carplay android_auto airplay
   chromecast youtube instagram tiktok facebook twitter x linkedin whatsapp pinterest snapchat reddit telegram
   twitch threads shorts reels youtube_shorts instagram_reels wordpress playstation xbox nintendo_switch steam
   apple_silicon apple_health google_fit app_store google_play play_store gmail outlook icloud google_drive
   onedrive google_calendar google_sheets google_docs google_workspace microsoft_365 office_365 netflix hulu
   disney+ disney_plus prime_video amazon_prime hbo_max max youtube_tv aws azure gcp google_cloud
   amazon_web_services microsoft_azure`,
);

/** Stores and marketplaces where products are bought or booked: context unless discussed as the subject. */
export const STORE_NAMES = wordSet(
  `amazon amazon.com ebay etsy walmart target best_buy costco home_depot the_home_depot lowe's lowes aliexpress
   temu shein mercado_libre mercadolibre el_corte_ingles fnac mediamarkt media_markt carrefour kroger
   sam's_club newegg b&h wayfair booking booking.com expedia airbnb kayak trivago hotels.com opentable resy
   google_maps apple_maps hostelworld agoda priceline skyscanner google_flights`,
);

/** Parent and ecosystem companies that appear bare mostly as context ("on Apple silicon", "from Google"). */
export const PARENT_COMPANIES = wordSet(
  `apple google amazon microsoft meta alphabet facebook`,
);

/** Review sites, research firms and raters: cited as sources, never recommended. */
export const REVIEW_SOURCES = wordSet(
  `rtings wirecutter consumer_reports cnet pcmag tom's_guide toms_guide techradar the_verge verge engadget
   zdnet wired g2 capterra getapp trustpilot yelp tripadvisor google_reviews gartner forrester idc counterpoint
   canalys j.d._power jd_power am_best nerdwallet bankrate investopedia michelin michelin_guide zagat eater
   the_infatuation infatuation ocu which? good_housekeeping statista similarweb`,
);

/** Standards, materials, components, formats and technical terms: never a brand entry of their own. */
export const TECHNICAL_TERMS = wordSet(
  `hepa true_hepa aham aham_verified cadr gore-tex goretex gore_tex bluetooth wi-fi wifi usb usb-c usbc
   thunderbolt hdmi hdr hdr10 hdr10+ dolby dolby_vision dolby_atmos atmos oled qled amoled mini-led miniled
   qd-oled lcd led lidar gps nfc esim sim 5g 4g lte epub pdf mp3 flac json jsonb sql nosql api apis sdk saas
   paas iaas crm erp hris ats seo sem ppc cms gdpr ccpa hipaa soc pci ai llm ml iot vpn diy smb smbs b2b b2c
   roi kpi kpis ui ux faq usd eur gbp mvno mvnos python javascript typescript java ruby php html css golang
   kotlin c++ c# energy_star usda fda ce iso ul fsc oeko-tex certipur certipur-us anc ipx7 ip68 ip67 rgb
   ssd hdd ram cpu gpu nvme mini_led mini-leds micro-led cdn dns ssl http https rest graphql oauth sso 2fa mfa
   pos ach apr apy fdic ira roth 401k hsa etf etfs kpa pa ghz mhz khz mah kwh wh mph kph db dba psi rpm fps
   hz lux nm msrp rrp eta pto ceo cto cfo coo ipo llc ev evs mpg nft nfts vr ar os pc pcs id pin atm cd cds
   hysa fsa sp s&p nasdaq nyse kyc aml sms otp qr ux/ui b2b2c dtc d2c sku skus oem odm gmv arr mrr ltv cac
   nps csat sla slas rfp mvp poc saas-based`,
);

/** Countries, regions, US states and major cities, in English and Spanish. */
export const PLACE_NAMES = wordSet(
  `us usa u.s u.s.a uk u.k eu america united_states united_kingdom britain great_britain england scotland wales
   ireland canada mexico brazil argentina chile colombia peru venezuela ecuador bolivia uruguay paraguay cuba
   spain portugal france germany italy netherlands holland belgium switzerland austria poland sweden norway
   denmark finland iceland greece turkey russia ukraine czechia czech_republic hungary romania croatia serbia
   china japan korea south_korea india pakistan indonesia thailand vietnam philippines malaysia singapore
   taiwan hong_kong australia new_zealand israel egypt morocco nigeria kenya south_africa uae dubai saudi_arabia
   qatar europe asia africa oceania latin_america latam north_america south_america central_america
   caribbean scandinavia nordics dach benelux middle_east midwest`,
  `alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois
   indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri
   montana nebraska nevada new_hampshire new_jersey new_mexico new_york north_carolina north_dakota ohio
   oklahoma oregon pennsylvania rhode_island south_carolina south_dakota tennessee texas utah vermont virginia
   washington west_virginia wisconsin wyoming ontario quebec british_columbia`,
  `new_york_city nyc la los_angeles san_francisco sf chicago houston dallas austin miami seattle boston denver
   atlanta phoenix philadelphia portland las_vegas nashville new_orleans san_diego kansas_city st._louis
   detroit minneapolis baltimore toronto vancouver montreal london paris berlin madrid barcelona rome milan
   amsterdam lisbon dublin vienna prague zurich munich brussels copenhagen stockholm oslo helsinki athens
   istanbul moscow tokyo osaka kyoto seoul beijing shanghai hong_kong bangkok singapore sydney melbourne delhi
   mumbai bangalore cairo cape_town lagos nairobi sao_paulo rio rio_de_janeiro buenos_aires santiago bogota
   lima quito caracas havana mexico_city guadalajara monterrey puebla cancun tijuana valencia sevilla seville
   malaga bilbao zaragoza brooklyn manhattan queens hollywood silicon_valley bay_area`,
  `espana mexico estados_unidos eeuu reino_unido francia alemania italia europa latinoamerica america_latina
   ciudad_de_mexico cdmx galicia cataluna andalucia madrid barcelona valencia sevilla canarias`,
);

/** Nationality and language adjectives, holidays and shopping events: capitalised, never brands. */
export const PROPER_ADJECTIVES_AND_EVENTS = wordSet(
  `english spanish french german italian portuguese dutch swedish norwegian danish finnish polish russian
   ukrainian greek turkish arabic hebrew hindi chinese mandarin cantonese japanese korean thai vietnamese
   indonesian american british european asian african latin latino latina hispanic mexican canadian australian
   indian brazilian argentine argentinian chilean colombian peruvian cuban irish scottish welsh swiss austrian
   belgian nordic scandinavian mediterranean western eastern northern southern midwestern southern californian
   espanol espanola ingles inglesa frances francesa aleman alemana italiano italiana mexicano mexicana europeo
   europea americano americana latinoamericano latinoamericana
   christmas xmas easter thanksgiving halloween hanukkah ramadan new_year new_year's black_friday cyber_monday
   prime_day boxing_day memorial_day labor_day labour_day independence_day valentine's_day mother's_day
   father's_day super_bowl olympics world_cup navidad semana_santa buen_fin hot_sale`,
);

/** Final words that make a capitalised phrase a place or route rather than a business. */
export const PLACE_SUFFIXES = wordSet(
  `street st avenue ave road rd boulevard blvd lane highway line station airport district neighborhood
   neighbourhood village county province region island islands beach valley heights hills river lake bay
   bridge mountains mountain calle avenida estacion linea barrio`,
);

/** First words that make a capitalised phrase a street or square: "Rua Garrett", "Calle Mayor". */
export const PLACE_PREFIXES = wordSet(`rua rue calle avenida paseo carrer praca piazza`);

/** Given names, to tell "Calvin Trillin" (a person) from a business; English and Spanish. */
export const GIVEN_NAMES = wordSet(
  `aaron adam adrian alan albert alex alexander alice alicia amanda amy andrew angela anna anne anthony arthur
   ashley barbara ben benjamin beth betty bill bob bobby brad brandon brian bruce carl carlos carol caroline
   catherine charles charlie chris christian christina christopher claire craig dan daniel david deborah dennis
   diana donald donna doug douglas dylan ed edward elizabeth emily emma eric erica ethan eva frank fred gary
   george grace greg gregory hannah harry helen henry ian isaac ivan jack jacob james jamie jane jason jeff
   jeffrey jennifer jeremy jerry jessica jim jimmy joe joel john johnny jon jonathan jordan jose joseph joshua
   juan julia julie justin karen kate katherine kathy keith kelly ken kenneth kevin kim kyle larry laura
   lauren linda lisa luis luke marc maria mark martin mary matt matthew megan melissa michael michelle mike
   nancy natalie nathan neil nick nicholas nicole noah oliver olivia pablo pam pat patrick paul peter phil
   rachel ralph randy ray rebecca richard rick rob robert roger ron ronald rose ryan sam samantha sandra sara
   sarah scott sean sharon simon sofia sophia stephen steve steven susan thomas tim timothy tina todd tom tony
   tyler victor victoria vincent walter wayne william zach calvin gordon jamie ina martha julia guy bobby
   marie pierre jean hans carmen lucia javier miguel alejandro fernando francisco manuel antonio pedro diego
   sergio raul jorge andres ricardo eduardo rafael alberto roberto enrique ana laura marta paula elena isabel
   cristina pilar rosa teresa dolores mercedes`,
);

/** Words right before a name that say a person follows ("writer Calvin Trillin", "Chef Ivan Orkin"). */
export const PERSON_TITLES = wordSet(
  `chef writer author founder co-founder cofounder ceo cto president host presenter critic journalist blogger
   youtuber influencer celebrity celebrities doctor dr dr. mr mr. mrs mrs. ms ms. professor prof prof.
   teacher teachers instructor coach trainer designer sommelier owner owners narrator actor actress singer
   rapper comedian athlete senator governor mayor escritor escritora fundador fundadora doctora don dona sr
   sra senor senora`,
);

/** Business words that keep "Ivan Ramen" or "Mr. Taka Ramen" a business even after a given name. */
export const BUSINESS_WORDS = wordSet(
  `ramen sushi pizza pizzeria bbq bar-b-q bar-b-que barbecue barbeque grill kitchen cafe café coffee bakery
   deli diner bistro brasserie tavern pub bar noodle noodles taqueria cantina burger burgers tacos hotel inn
   motel hostel resort spa lodge suites shop store boutique market studio studios gym fitness salon clinic
   dental bank insurance co company corp group labs lab works supply motors restaurant restaurante
   house steakhouse chophouse bagels donuts creamery brewery winery distillery`,
);

/** Nouns after a capitalised phrase that make it a feature, plan, dish or part rather than a brand. */
export const FEATURE_NOUNS = wordSet(
  `program programs programme plan plans feature features metric metrics mode modes membership memberships
   tier tiers setting settings score scores rating certification standard technology tech button buttons
   sandwich sandwiches burger burgers dish dishes roll rolls bowl bowls cocktail cocktails combo menu sauce
   building head channel channels algorithm formula method technique protocol index award awards prize
   framework curriculum certificate certificates exam score ratings access perk perks benefit benefits
   programa funcion modo plato`,
);

/** Words that, written right after a brand, close a maker + plan alias ("Rappi Pro", "Uber One"). */
export const PLAN_SUFFIXES = wordSet(
  `pro plus premium one prime max lite basic business team teams enterprise free starter family student
   unlimited gold platinum essentials`,
);

/** Verbs that follow a sentence's subject: "Etsy is", "Step offers", "Rappi tiene". */
export const SUBJECT_VERBS = wordSet(
  `is are was were has have had offers offer gives give lets let makes make provides provide includes include
   supports support costs cost charges charge works work uses use remains stands tends delivers focuses leads
   shines wins beats excels comes starts feels runs sells integrates specializes specialises stays tops covers
   wins won focuses targets serves caters doubles excels allows can could will would should may might does
   do isn't aren't doesn't hasn't also often still usually typically generally
   es son tiene tienen ofrece ofrecen suele suelen permite permiten cuesta cuestan destaca destacan funciona
   incluye incluyen da dan hace hacen sigue normalmente`,
);

/** Headings and labels whose following list holds criteria or advice, not products. */
export const ADVICE_SECTION_PATTERN =
  /\b(?:look(?:ing)? for|to consider|consider(?:ing)? when|considerations?|features?|tips?|ways? to|how to|factors?|what to|pros|cons|drawbacks?|downsides?|benefits?|advantages?|disadvantages?|things to|checklist|criteria|steps?|questions|red flags|mistakes|qu[eé] buscar|consejos?|ventajas|desventajas|contras|c[oó]mo elegir|factores|caracter[ií]sticas|claves?)\b/iu;

/** Column header words that mark the column holding the products in a comparison table. */
export const NAME_COLUMN_HEADERS = wordSet(
  `brand product service tool app platform provider company option name model carrier bank card airline
   hotel restaurant store software hosting vendor solution pick plan insurer lender broker winner choice
   recommendation runner-up alternative upgrade marca producto servicio herramienta aplicacion plataforma proveedor empresa opcion nombre
   modelo ganador eleccion recomendacion alternativa`,
);

/** Column header words that rule a column out as the name column ("Price", "Best for", "Plan type"). */
export const NON_NAME_COLUMN_WORDS = wordSet(
  `price prices cost costs fee fees rating ratings score scores for type size rank ranking feature features
   precio coste costo puntuacion para tipo`,
);

/** Column headers of a maker column, to be joined with a model column ("Samsung" + "Galaxy A55"). */
export const MAKER_COLUMN_HEADERS = wordSet(`brand make maker manufacturer marca fabricante`);

/** Column headers of a model column that goes with a maker column. */
export const MODEL_COLUMN_HEADERS = wordSet(`model product series line modelo producto serie`);

/** True when the folded word is in the set, also trying its singular form. */
export function hasWord(set: ReadonlySet<string>, word: string): boolean {
  const folded = foldWord(word);
  if (set.has(folded)) return true;
  if (folded.length > 3 && folded.endsWith('s') && set.has(folded.slice(0, -1))) return true;
  return folded.length > 4 && folded.endsWith('es') && set.has(folded.slice(0, -2));
}
