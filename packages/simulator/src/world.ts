import type { PromptLanguage } from './types.js';

/** Where a regional brand mostly operates; brands without markets are global. */
export type Market = 'us' | 'uk' | 'eu' | 'es' | 'mx' | 'co' | 'ar' | 'cl' | 'pe' | 'br' | 'latam';

export interface WorldBrand {
  readonly name: string;
  /** Other spellings a prompt may use ("Sendinblue" for Brevo). */
  readonly aliases?: readonly string[];
  /** One line in English, starting with an article so "X is …" reads well. */
  readonly description: string;
  /** The same line in Spanish ("X es …"). */
  readonly descriptionEs: string;
  readonly markets?: readonly Market[];
}

export interface WorldCategory {
  readonly id: string;
  readonly name: Readonly<Record<PromptLanguage, string>>;
  /**
   * Phrases that signal the category, in English and Spanish, matched on folded, de-pluralised words.
   * A "+" joins phrases that must all appear anywhere in the prompt ("coffee+seattle").
   */
  readonly keywords: readonly string[];
  /** Roughly in order of popularity: earlier brands are the ones assistants name most. */
  readonly brands: readonly WorldBrand[];
}

function brand(
  name: string,
  description: string,
  descriptionEs: string,
  extra: { aliases?: readonly string[]; markets?: readonly Market[] } = {},
): WorldBrand {
  return { name, description, descriptionEs, ...extra };
}

const LATAM: readonly Market[] = ['latam', 'mx', 'co', 'ar', 'cl', 'pe'];

/** The seeded world: categories with real brands, each with a one-line description in both languages. */
export const WORLD_CATEGORIES: readonly WorldCategory[] = [
  {
    id: 'crm',
    name: { en: 'CRM software', es: 'software CRM' },
    keywords: [
      'crm', 'customer relationship management', 'sales pipeline', 'sales crm', 'contact management',
      'gestion de clientes', 'gestion de relaciones con clientes', 'software de ventas', 'gestion comercial',
    ],
    brands: [
      brand('HubSpot', 'an all-in-one CRM with a generous free tier and strong marketing and sales tools', 'un CRM todo en uno con un plan gratuito generoso y buenas herramientas de marketing y ventas', { aliases: ['HubSpot CRM'] }),
      brand('Salesforce', 'the enterprise CRM leader, extremely customizable and backed by a huge app ecosystem', 'el líder de los CRM empresariales, muy personalizable y con un enorme ecosistema de aplicaciones', { aliases: ['Salesforce Sales Cloud', 'Sales Cloud'] }),
      brand('Pipedrive', 'a pipeline-focused CRM that small sales teams find easy to adopt', 'un CRM centrado en el embudo de ventas, fácil de adoptar para equipos comerciales pequeños'),
      brand('Zoho CRM', 'an affordable, feature-rich CRM that fits well with the rest of the Zoho suite', 'un CRM asequible y completo que se integra con el resto de la suite de Zoho', { aliases: ['Zoho'] }),
      brand('Freshsales', "Freshworks' CRM, with built-in phone, email and AI lead scoring", 'el CRM de Freshworks, con teléfono, correo y puntuación de leads con IA integrados', { aliases: ['Freshworks CRM'] }),
      brand('monday sales CRM', 'a visual, highly configurable CRM built on the monday.com work platform', 'un CRM visual y muy configurable construido sobre la plataforma monday.com', { aliases: ['monday CRM'] }),
      brand('Close', 'a CRM built for inside sales teams, with calling and email sequences built in', 'un CRM pensado para equipos de ventas internas, con llamadas y secuencias de correo integradas', { aliases: ['Close CRM'] }),
      brand('Copper', 'a CRM designed to live inside Google Workspace', 'un CRM diseñado para funcionar dentro de Google Workspace', { aliases: ['Copper CRM'] }),
      brand('Insightly', 'a CRM with built-in project management for teams that deliver work after the sale', 'un CRM con gestión de proyectos integrada para equipos que entregan trabajo después de la venta'),
      brand('Microsoft Dynamics 365', "Microsoft's enterprise CRM and ERP suite, strongest for companies already on Microsoft 365", 'la suite CRM y ERP empresarial de Microsoft, ideal para empresas que ya usan Microsoft 365', { aliases: ['Dynamics 365', 'Microsoft Dynamics'] }),
    ],
  },
  {
    id: 'project_management',
    name: { en: 'project management tools', es: 'herramientas de gestión de proyectos' },
    keywords: [
      'project management', 'project manager', 'task management', 'task manager', 'kanban', 'project tracking',
      'work management', 'project tool', 'gestion de proyecto', 'gestor de proyecto', 'gestion de tarea',
      'administracion de proyecto', 'organizar proyecto',
    ],
    brands: [
      brand('Asana', 'a polished work-management tool for planning projects, tasks and timelines across teams', 'una herramienta pulida para planificar proyectos, tareas y cronogramas entre equipos'),
      brand('Trello', 'a simple, visual Kanban-board tool from Atlassian', 'una herramienta sencilla y visual de tableros Kanban de Atlassian'),
      brand('monday.com', 'a flexible work platform with colorful boards, automations and dashboards', 'una plataforma de trabajo flexible con tableros, automatizaciones y paneles', { aliases: ['monday', 'Monday'] }),
      brand('Jira', "Atlassian's issue and project tracker, the standard for software teams", 'el gestor de incidencias y proyectos de Atlassian, el estándar para equipos de software', { aliases: ['Jira Software'] }),
      brand('ClickUp', 'an everything-in-one productivity platform with tasks, docs and goals', 'una plataforma de productividad todo en uno con tareas, documentos y objetivos'),
      brand('Notion', 'a flexible workspace that combines docs, wikis and project databases', 'un espacio de trabajo flexible que combina documentos, wikis y bases de datos de proyectos'),
      brand('Basecamp', 'a calm, flat-priced tool for projects and team communication', 'una herramienta tranquila y de precio fijo para proyectos y comunicación de equipo'),
      brand('Wrike', 'a robust project management platform for larger, cross-functional teams', 'una plataforma robusta de gestión de proyectos para equipos grandes y multifuncionales'),
      brand('Smartsheet', 'a spreadsheet-style platform for project planning and reporting', 'una plataforma tipo hoja de cálculo para planificar proyectos y generar informes'),
      brand('Linear', 'a fast, opinionated issue tracker loved by product and engineering teams', 'un gestor de incidencias rápido y con criterio propio, muy apreciado por equipos de producto e ingeniería'),
    ],
  },
  {
    id: 'issue_tracking',
    name: { en: 'issue trackers', es: 'gestores de incidencias' },
    keywords: [
      'issue tracker', 'issue tracking', 'bug tracker', 'bug tracking', 'ticket tracker', 'sprint planning tool',
      'gestor de incidencia', 'seguimiento de incidencia', 'seguimiento de errore', 'gestion de incidencia',
    ],
    brands: [
      brand('Jira', "Atlassian's issue and project tracker, the standard for software teams", 'el gestor de incidencias y proyectos de Atlassian, el estándar para equipos de software', { aliases: ['Jira Software'] }),
      brand('Linear', 'a fast, opinionated issue tracker loved by product and engineering teams', 'un gestor de incidencias rápido y con criterio propio, muy apreciado por equipos de producto e ingeniería'),
      brand('GitHub Issues', 'the issue tracker built into GitHub, simple and close to the code', 'el gestor de incidencias integrado en GitHub, sencillo y junto al código', { aliases: ['GitHub Projects'] }),
      brand('GitLab', 'a DevOps platform whose built-in issues and boards suit teams already on GitLab', 'una plataforma DevOps cuyas incidencias y tableros integrados encajan con equipos que ya usan GitLab'),
      brand('YouTrack', "JetBrains' customizable issue tracker with strong search and workflows", 'el gestor de incidencias de JetBrains, muy configurable y con buena búsqueda y flujos de trabajo'),
      brand('Shortcut', 'a lightweight tracker for software teams, formerly called Clubhouse', 'un gestor ligero para equipos de software, antes llamado Clubhouse', { aliases: ['Clubhouse'] }),
      brand('ClickUp', 'an everything-in-one productivity platform whose tasks double as an issue tracker', 'una plataforma de productividad todo en uno cuyas tareas sirven también como gestor de incidencias'),
      brand('Azure DevOps', "Microsoft's suite whose Boards track work items for teams on Azure", 'la suite de Microsoft cuyos Boards gestionan el trabajo de equipos que usan Azure', { aliases: ['Azure Boards'] }),
      brand('Asana', 'a polished work-management tool that many teams also use to track bugs', 'una herramienta pulida de gestión del trabajo que muchos equipos usan también para seguir errores'),
    ],
  },
  {
    id: 'running_shoes',
    name: { en: 'running shoes', es: 'zapatillas para correr' },
    keywords: [
      'running shoe', 'running sneaker', 'running trainer', 'marathon shoe', 'trail running shoe', 'shoe for running',
      'jogging shoe', 'zapatilla para correr', 'zapatilla de running', 'zapatilla de correr', 'tenis para correr',
      'calzado para correr', 'calzado de running', 'zapatilla running',
    ],
    brands: [
      brand('Nike', 'the biggest name in sportswear, with popular running lines like the Pegasus and Vaporfly', 'la marca deportiva más grande, con líneas de running populares como Pegasus y Vaporfly'),
      brand('Brooks', 'a running-specialist brand known for comfortable, reliable daily trainers like the Ghost', 'una marca especializada en running, conocida por zapatillas cómodas y fiables como la Ghost', { aliases: ['Brooks Running'] }),
      brand('Hoka', 'a brand famous for max-cushioned, rockered shoes such as the Clifton', 'una marca famosa por su amortiguación máxima y su suela balancín, como la Clifton', { aliases: ['HOKA', 'Hoka One One'] }),
      brand('ASICS', 'a Japanese running brand with long-time favourites like the Gel-Kayano and Novablast', 'una marca japonesa de running con modelos clásicos como Gel-Kayano y Novablast', { aliases: ['Asics'] }),
      brand('Adidas', 'a global sportswear brand whose Adizero and Ultraboost lines cover racing and everyday runs', 'una marca deportiva global cuyas líneas Adizero y Ultraboost cubren competición y uso diario', { aliases: ['adidas'] }),
      brand('New Balance', 'a brand offering plush, wide-fitting trainers like the Fresh Foam 1080', 'una marca con zapatillas mullidas y de horma ancha como la Fresh Foam 1080'),
      brand('Saucony', 'a running brand with well-reviewed trainers like the Endorphin and Ride', 'una marca de running con modelos muy valorados como Endorphin y Ride'),
      brand('On', 'a Swiss brand known for its CloudTec soles and sleek design', 'una marca suiza conocida por su suela CloudTec y su diseño elegante', { aliases: ['On Running', 'On Cloud'] }),
      brand('Mizuno', 'a Japanese brand with durable, responsive shoes like the Wave Rider', 'una marca japonesa con zapatillas duraderas y reactivas como la Wave Rider'),
      brand('Altra', 'a brand known for zero-drop soles and roomy toe boxes', 'una marca conocida por su drop cero y su puntera amplia'),
    ],
  },
  {
    id: 'standing_desks',
    name: { en: 'standing desks', es: 'escritorios elevables' },
    keywords: [
      'standing desk', 'stand up desk', 'sit stand desk', 'height adjustable desk', 'adjustable desk', 'desk converter',
      'escritorio elevable', 'escritorio de pie', 'mesa elevable', 'escritorio regulable', 'escritorio ajustable',
      'mesa regulable', 'escritorio electrico',
    ],
    brands: [
      brand('Uplift Desk', 'a popular, highly customizable electric standing desk with a long warranty', 'un escritorio elevable eléctrico popular y muy personalizable, con una garantía larga', { aliases: ['Uplift', 'UPLIFT Desk'] }),
      brand('FlexiSpot', 'a budget-friendly standing desk brand with a wide range of frames', 'una marca de escritorios elevables asequibles con muchas estructuras distintas', { aliases: ['Flexispot'] }),
      brand('Fully Jarvis', 'a well-reviewed standing desk line, now part of Herman Miller', 'una línea de escritorios elevables muy valorada, ahora parte de Herman Miller', { aliases: ['Jarvis', 'Fully'] }),
      brand('Vari', 'a brand known for desk converters and sturdy electric standing desks', 'una marca conocida por sus convertidores de escritorio y sus escritorios eléctricos robustos', { aliases: ['VariDesk', 'Varidesk'] }),
      brand('Autonomous', 'a maker of affordable SmartDesk electric standing desks', 'un fabricante de escritorios eléctricos SmartDesk asequibles', { aliases: ['Autonomous SmartDesk'] }),
      brand('IKEA', 'the furniture giant whose Bekant and Trotten desks are simple, low-cost options', 'el gigante del mueble cuyos escritorios Bekant y Trotten son opciones sencillas y económicas', { aliases: ['Ikea'] }),
      brand('Herman Miller', 'a premium office-furniture maker with high-end sit-stand desks', 'un fabricante de mobiliario de oficina premium con escritorios regulables de gama alta'),
      brand('Steelcase', 'an office-furniture company whose Migration desks suit both offices and home setups', 'una empresa de mobiliario de oficina cuyos escritorios Migration sirven para la oficina y para casa'),
      brand('Branch', 'a direct-to-consumer office furniture brand with solid, well-priced standing desks', 'una marca de mobiliario de oficina de venta directa con escritorios elevables sólidos y a buen precio', { aliases: ['Branch Furniture'] }),
      brand('Desky', 'an Australian brand known for solid hardwood standing desks', 'una marca australiana conocida por sus escritorios elevables de madera maciza'),
    ],
  },
  {
    id: 'email_marketing',
    name: { en: 'email marketing platforms', es: 'plataformas de email marketing' },
    keywords: [
      'email marketing', 'newsletter', 'email campaign', 'email automation', 'mailing list', 'email service provider',
      'marketing por correo', 'marketing por email', 'correo masivo', 'envio de newsletter', 'boletin', 'mailing',
    ],
    brands: [
      brand('Mailchimp', 'the best-known email marketing platform, easy for beginners and with a free plan', 'la plataforma de email marketing más conocida, fácil para principiantes y con plan gratuito', { aliases: ['MailChimp'] }),
      brand('Klaviyo', 'an email and SMS platform built for e-commerce, with deep Shopify integration', 'una plataforma de email y SMS pensada para e-commerce, con integración profunda con Shopify'),
      brand('Brevo', 'an affordable email, SMS and automation platform formerly known as Sendinblue', 'una plataforma asequible de email, SMS y automatización, antes conocida como Sendinblue', { aliases: ['Sendinblue'] }),
      brand('Kit', 'an email platform for creators, formerly called ConvertKit', 'una plataforma de email para creadores, antes llamada ConvertKit', { aliases: ['ConvertKit'] }),
      brand('ActiveCampaign', 'a platform with some of the most powerful marketing automation for its price', 'una plataforma con una de las automatizaciones de marketing más potentes por su precio'),
      brand('Constant Contact', 'a long-standing, beginner-friendly email tool popular with small businesses', 'una herramienta de email veterana y fácil de usar, popular entre las pequeñas empresas'),
      brand('MailerLite', 'a simple, affordable email tool with a generous free tier', 'una herramienta de email sencilla y asequible con un plan gratuito generoso'),
      brand('GetResponse', 'an email marketing suite with webinars and landing pages built in', 'una suite de email marketing con webinars y landing pages integradas'),
      brand('Omnisend', 'an e-commerce-focused email and SMS tool', 'una herramienta de email y SMS enfocada en el comercio electrónico'),
      brand('Campaign Monitor', 'an email platform known for polished templates and agency features', 'una plataforma de email conocida por sus plantillas cuidadas y sus funciones para agencias'),
    ],
  },
  {
    id: 'vpn',
    name: { en: 'VPN services', es: 'servicios de VPN' },
    keywords: ['vpn', 'virtual private network', 'red privada virtual'],
    brands: [
      brand('NordVPN', 'a fast, feature-rich VPN with a large server network', 'una VPN rápida y completa con una gran red de servidores', { aliases: ['Nord VPN'] }),
      brand('ExpressVPN', 'a premium VPN known for reliability and ease of use', 'una VPN premium conocida por su fiabilidad y facilidad de uso', { aliases: ['Express VPN'] }),
      brand('Surfshark', 'a budget-friendly VPN that allows unlimited devices', 'una VPN económica que permite dispositivos ilimitados'),
      brand('Proton VPN', 'a privacy-focused VPN from the makers of Proton Mail, with a free tier', 'una VPN centrada en la privacidad de los creadores de Proton Mail, con plan gratuito', { aliases: ['ProtonVPN'] }),
      brand('Mullvad', 'a privacy-first VPN with anonymous accounts and flat pricing', 'una VPN que prioriza la privacidad, con cuentas anónimas y precio fijo', { aliases: ['Mullvad VPN'] }),
      brand('Private Internet Access', 'a long-running, configurable VPN with a large server fleet', 'una VPN veterana y configurable con muchísimos servidores', { aliases: ['PIA'] }),
      brand('CyberGhost', 'a beginner-friendly VPN with servers optimized for streaming', 'una VPN fácil de usar con servidores optimizados para streaming', { aliases: ['CyberGhost VPN'] }),
      brand('IPVanish', 'a VPN with unlimited connections and good speeds', 'una VPN con conexiones ilimitadas y buena velocidad'),
      brand('Windscribe', 'a VPN with a useful free plan and flexible pricing', 'una VPN con un plan gratuito útil y precios flexibles'),
    ],
  },
  {
    id: 'meal_kits',
    name: { en: 'meal kit services', es: 'servicios de kits de comida' },
    keywords: [
      'meal kit', 'meal delivery kit', 'recipe box', 'meal kit delivery', 'meal subscription',
      'kit de comida', 'caja de receta', 'kit de cocina', 'kit de receta', 'caja de comida',
    ],
    brands: [
      brand('HelloFresh', 'the largest meal kit service, with a big weekly menu and frequent discounts', 'el mayor servicio de kits de comida, con un amplio menú semanal y descuentos frecuentes', { aliases: ['Hello Fresh'] }),
      brand('Blue Apron', 'a meal kit pioneer with chef-designed recipes', 'un pionero de los kits de comida con recetas diseñadas por chefs', { markets: ['us'] }),
      brand('Home Chef', 'a flexible meal kit owned by Kroger, with quick and oven-ready options', 'un kit de comida flexible de Kroger, con opciones rápidas y listas para el horno', { markets: ['us'] }),
      brand('Green Chef', 'an organic-focused meal kit that suits keto, paleo and plant-based diets', 'un kit de comida enfocado en lo orgánico, bueno para dietas keto, paleo y vegetales'),
      brand('EveryPlate', 'one of the cheapest meal kits, with simple recipes', 'uno de los kits de comida más baratos, con recetas sencillas'),
      brand('Factor', 'a prepared-meal service for people who would rather not cook at all', 'un servicio de comidas preparadas para quien prefiere no cocinar', { aliases: ['Factor 75', 'Factor_'] }),
      brand('Marley Spoon', 'a meal kit with creative recipes and flexible delivery', 'un kit de comida con recetas creativas y entrega flexible'),
      brand('Dinnerly', 'a budget meal kit from Marley Spoon with fewer ingredients per recipe', 'un kit de comida económico de Marley Spoon con menos ingredientes por receta'),
      brand('Purple Carrot', 'a fully plant-based meal kit', 'un kit de comida completamente vegetal', { markets: ['us'] }),
      brand('Gousto', "the UK's popular meal kit with a huge recipe range", 'el popular kit de comida de Reino Unido, con una enorme variedad de recetas', { markets: ['uk'] }),
    ],
  },
  {
    id: 'accounting',
    name: { en: 'accounting software', es: 'software de contabilidad' },
    keywords: [
      'accounting', 'bookkeeping', 'accounting software', 'invoicing software', 'accounting app',
      'contabilidad', 'software contable', 'programa contable', 'sistema contable', 'facturacion electronica',
      'software de facturacion', 'programa de facturacion',
    ],
    brands: [
      brand('QuickBooks', "Intuit's widely used small-business accounting software", 'el software de contabilidad de Intuit, muy usado por pequeñas empresas', { aliases: ['QuickBooks Online', 'Intuit QuickBooks'] }),
      brand('Xero', 'a cloud accounting platform popular with small businesses and their accountants', 'una plataforma de contabilidad en la nube popular entre las pymes y sus contadores'),
      brand('FreshBooks', 'an invoicing-first accounting tool aimed at freelancers and service businesses', 'una herramienta contable centrada en la facturación, pensada para autónomos y empresas de servicios'),
      brand('Zoho Books', 'an affordable accounting app that integrates with the Zoho suite', 'una app de contabilidad asequible que se integra con la suite de Zoho'),
      brand('Wave', 'a free accounting app for very small businesses', 'una app de contabilidad gratuita para negocios muy pequeños', { aliases: ['Wave Accounting'] }),
      brand('Sage', 'a long-established accounting software vendor with products for every company size', 'un proveedor veterano de software contable con productos para empresas de todos los tamaños', { aliases: ['Sage Accounting', 'Sage 50'] }),
      brand('NetSuite', "Oracle's cloud ERP for growing mid-size companies", 'el ERP en la nube de Oracle para empresas medianas en crecimiento', { aliases: ['Oracle NetSuite'] }),
      brand('Alegra', 'a Latin American cloud accounting and e-invoicing platform for small businesses', 'una plataforma latinoamericana de contabilidad y facturación electrónica en la nube para pymes', { markets: LATAM }),
      brand('CONTPAQi', "Mexico's best-known accounting and payroll software, built around SAT requirements", 'el software de contabilidad y nómina más conocido de México, adaptado a los requisitos del SAT', { aliases: ['Contpaqi', 'CONTPAQ i', 'Contpaq'], markets: ['mx'] }),
      brand('Siigo', 'a Colombian cloud accounting and e-invoicing tool for small businesses', 'un software colombiano de contabilidad y facturación electrónica en la nube para pymes', { markets: ['co', 'latam'] }),
      brand('Holded', 'a Spanish all-in-one business management and accounting platform', 'una plataforma española todo en uno de gestión empresarial y contabilidad', { markets: ['es'] }),
    ],
  },
  {
    id: 'language_learning',
    name: { en: 'language learning apps', es: 'apps para aprender idiomas' },
    keywords: [
      'language learning', 'learn a language', 'learning a language', 'learn spanish', 'learn english', 'learn french',
      'learn german', 'language app', 'learn language', 'aprender idioma', 'aprender ingle', 'aprender frances',
      'app de idioma', 'aplicacion de idioma', 'aprender espanol', 'estudiar idioma',
    ],
    brands: [
      brand('Duolingo', 'a free, gamified language app with short daily lessons', 'una app de idiomas gratuita y gamificada con lecciones diarias cortas'),
      brand('Babbel', 'a subscription app with structured, conversation-focused courses', 'una app de suscripción con cursos estructurados y enfocados en la conversación'),
      brand('Rosetta Stone', 'a veteran, immersion-based language program', 'un programa de idiomas veterano basado en la inmersión'),
      brand('Busuu', 'a language app with feedback from native speakers', 'una app de idiomas con correcciones de hablantes nativos'),
      brand('Memrise', 'a vocabulary-focused app with videos of native speakers', 'una app centrada en el vocabulario con vídeos de hablantes nativos'),
      brand('Pimsleur', 'an audio-first course that is great for speaking and listening', 'un curso basado en audio, ideal para hablar y escuchar'),
      brand('italki', 'a marketplace for one-on-one lessons with online tutors', 'un marketplace de clases particulares con profesores en línea', { aliases: ['iTalki', 'Italki'] }),
      brand('Preply', 'a tutoring platform for live lessons with vetted teachers', 'una plataforma de clases en vivo con profesores verificados'),
      brand('Lingoda', 'an online language school with small-group classes', 'una escuela de idiomas en línea con clases en grupos reducidos'),
    ],
  },
  {
    id: 'coffee_seattle',
    name: { en: 'coffee shops in Seattle', es: 'cafeterías en Seattle' },
    keywords: ['coffee+seattle', 'cafe+seattle', 'espresso+seattle', 'cafeteria+seattle', 'coffee shop+seattle'],
    brands: [
      brand('Victrola Coffee Roasters', 'a Capitol Hill roaster with a big, relaxed café', 'un tostador de Capitol Hill con una cafetería amplia y relajada', { aliases: ['Victrola'] }),
      brand('Espresso Vivace', 'a Seattle espresso institution famous for its latte art', 'una institución del espresso en Seattle, famosa por su latte art', { aliases: ['Vivace'] }),
      brand('Storyville Coffee', 'a cozy café above Pike Place Market', 'una cafetería acogedora sobre Pike Place Market', { aliases: ['Storyville'] }),
      brand('Elm Coffee Roasters', 'a minimalist Pioneer Square roaster with excellent pour-overs', 'un tostador minimalista de Pioneer Square con excelentes cafés de filtro', { aliases: ['Elm Coffee'] }),
      brand('Caffe Ladro', 'a local chain known for strong espresso and fresh pastries', 'una cadena local conocida por su espresso intenso y su bollería fresca'),
      brand('Milstead & Co.', 'a Fremont café pouring beans from many roasters, loved by coffee nerds', 'una cafetería de Fremont con granos de muchos tostadores, favorita de los aficionados', { aliases: ['Milstead', 'Milstead and Co'] }),
      brand('Zeitgeist Coffee', 'a Pioneer Square café with a bakery and a loyal following', 'una cafetería de Pioneer Square con panadería y una clientela fiel', { aliases: ['Zeitgeist'] }),
      brand('Starbucks Reserve Roastery', "Starbucks' flagship roastery on Capitol Hill", 'la tostadora insignia de Starbucks en Capitol Hill'),
      brand('Anchorhead Coffee', 'a Seattle roaster known for creative seasonal drinks', 'un tostador de Seattle conocido por sus bebidas de temporada creativas', { aliases: ['Anchorhead'] }),
      brand('Lighthouse Roasters', 'a small neighborhood roaster in Fremont', 'un pequeño tostador de barrio en Fremont'),
    ],
  },
  {
    id: 'coffee_madrid',
    name: { en: 'coffee shops in Madrid', es: 'cafeterías en Madrid' },
    keywords: ['coffee+madrid', 'cafe+madrid', 'cafeteria+madrid', 'espresso+madrid', 'coffee shop+madrid'],
    brands: [
      brand('Toma Café', 'a pioneer of specialty coffee in Malasaña', 'un pionero del café de especialidad en Malasaña', { aliases: ['Toma Cafe'] }),
      brand('HOLA Coffee', 'a specialty roaster and café in Lavapiés', 'un tostador y cafetería de especialidad en Lavapiés', { aliases: ['Hola Coffee'] }),
      brand('Federal Café', 'a bright brunch café on Plaza de las Comendadoras', 'una cafetería luminosa de brunch en la Plaza de las Comendadoras', { aliases: ['Federal Cafe', 'Federal'] }),
      brand('Misión Café', 'a specialty café and roastery near Plaza de España', 'una cafetería y tostador de especialidad cerca de Plaza de España', { aliases: ['Mision Cafe'] }),
      brand('Hanso Café', 'a small, popular specialty café in Malasaña', 'una cafetería de especialidad pequeña y popular en Malasaña', { aliases: ['Hanso Cafe', 'Hanso'] }),
      brand('Ruda Café', 'a specialty café in La Latina', 'una cafetería de especialidad en La Latina', { aliases: ['Ruda Cafe'] }),
      brand('Café de Oriente', 'a classic café facing the Royal Palace', 'un café clásico frente al Palacio Real', { aliases: ['Cafe de Oriente'] }),
      brand('Café Comercial', "one of Madrid's oldest cafés, on Glorieta de Bilbao", 'uno de los cafés más antiguos de Madrid, en la Glorieta de Bilbao', { aliases: ['Cafe Comercial'] }),
    ],
  },
  {
    id: 'coffee_chains',
    name: { en: 'coffee chains', es: 'cadenas de café' },
    keywords: ['coffee shop', 'coffee chain', 'coffee', 'cafe', 'cafeteria', 'espresso bar', 'cadena de cafe', 'cafe de especialidad'],
    brands: [
      brand('Starbucks', 'the global coffee chain with a huge menu and a popular rewards app', 'la cadena global de café con un menú enorme y una app de recompensas popular'),
      brand("Dunkin'", 'a fast, affordable chain known for coffee and doughnuts', 'una cadena rápida y económica conocida por su café y sus donas', { aliases: ['Dunkin', 'Dunkin Donuts'], markets: ['us'] }),
      brand('Costa Coffee', "the UK's largest coffee chain", 'la mayor cadena de café de Reino Unido', { aliases: ['Costa'], markets: ['uk', 'eu'] }),
      brand("Peet's Coffee", 'a Bay Area chain known for dark, rich roasts', 'una cadena de la bahía de San Francisco conocida por sus tuestes oscuros e intensos', { aliases: ["Peet's", 'Peets'], markets: ['us'] }),
      brand('Blue Bottle Coffee', 'a specialty chain known for single-origin pour-overs', 'una cadena de especialidad conocida por sus cafés de filtro de origen único', { aliases: ['Blue Bottle'] }),
      brand('Tim Hortons', "Canada's iconic coffee and doughnut chain", 'la icónica cadena canadiense de café y donas', { aliases: ['Tim Hortons'] }),
      brand('Juan Valdez Café', 'a Colombian chain serving 100% Colombian coffee', 'una cadena colombiana que sirve café 100 % colombiano', { aliases: ['Juan Valdez'], markets: LATAM }),
      brand('Intelligentsia', 'a Chicago specialty roaster with a few flagship cafés', 'un tostador de especialidad de Chicago con algunas cafeterías insignia', { aliases: ['Intelligentsia Coffee'], markets: ['us'] }),
      brand('Stumptown Coffee', 'a Portland roaster that helped popularise cold brew', 'un tostador de Portland que ayudó a popularizar el cold brew', { aliases: ['Stumptown'], markets: ['us'] }),
    ],
  },
  {
    id: 'credit_cards',
    name: { en: 'credit cards', es: 'tarjetas de crédito' },
    keywords: ['credit card', 'rewards card', 'cash back card', 'cashback card', 'travel card', 'tarjeta de credito', 'tarjeta de recompensa'],
    brands: [
      brand('Chase Sapphire Preferred', 'a travel rewards card with flexible Ultimate Rewards points', 'una tarjeta de recompensas de viaje con puntos Ultimate Rewards flexibles', { aliases: ['Sapphire Preferred'], markets: ['us'] }),
      brand('American Express Gold Card', 'a rewards card that shines for dining and groceries', 'una tarjeta de recompensas que destaca en restaurantes y supermercados', { aliases: ['Amex Gold', 'American Express Gold'] }),
      brand('Capital One Venture', 'a simple travel card that earns 2x miles on everything', 'una tarjeta de viaje sencilla que da 2 millas por dólar en todo', { aliases: ['Capital One Venture Rewards'], markets: ['us'] }),
      brand('Citi Double Cash', 'a no-annual-fee card with a flat 2% cash back', 'una tarjeta sin cuota anual con un 2 % de reembolso en todo', { markets: ['us'] }),
      brand('Chase Freedom Unlimited', 'a no-annual-fee cash back card that pairs well with the Sapphire cards', 'una tarjeta de reembolso sin cuota anual que combina bien con las Sapphire', { markets: ['us'] }),
      brand('Discover it Cash Back', 'a card with rotating 5% categories and a first-year cashback match', 'una tarjeta con categorías rotativas del 5 % y duplicación del reembolso el primer año', { aliases: ['Discover it'], markets: ['us'] }),
      brand('Wells Fargo Active Cash', 'a flat-rate 2% cash rewards card with no annual fee', 'una tarjeta de reembolso fijo del 2 % sin cuota anual', { markets: ['us'] }),
      brand('Capital One Savor', 'a cash back card geared to dining and entertainment', 'una tarjeta de reembolso orientada a restaurantes y entretenimiento', { markets: ['us'] }),
      brand('Nu', 'a digital bank whose no-annual-fee credit card is popular in Brazil, Mexico and Colombia', 'un banco digital cuya tarjeta de crédito sin anualidad es popular en Brasil, México y Colombia', { aliases: ['Nubank', 'Nu México', 'Tarjeta Nu'], markets: ['mx', 'co', 'br', 'latam'] }),
      brand('BBVA', 'a large bank whose credit cards are widely used in Spain and Mexico', 'un gran banco cuyas tarjetas de crédito son muy usadas en España y México', { aliases: ['BBVA México'], markets: ['es', 'mx'] }),
    ],
  },
  {
    id: 'note_taking',
    name: { en: 'note-taking apps', es: 'apps para tomar notas' },
    keywords: [
      'note taking', 'note app', 'notes app', 'note taker', 'second brain', 'knowledge base app', 'tomar nota',
      'app de nota', 'aplicacion de nota', 'apunte', 'app para nota',
    ],
    brands: [
      brand('Notion', 'an all-in-one workspace for notes, docs and wikis', 'un espacio de trabajo todo en uno para notas, documentos y wikis'),
      brand('Evernote', 'a veteran notes app with strong web clipping and search', 'una app de notas veterana con un buen recortador web y búsqueda'),
      brand('Obsidian', 'a local-first Markdown notes app with backlinks and plugins', 'una app de notas en Markdown que guarda todo en local, con enlaces entre notas y plugins'),
      brand('Microsoft OneNote', "Microsoft's free, notebook-style notes app", 'la app de notas gratuita de Microsoft con formato de cuaderno', { aliases: ['OneNote'] }),
      brand('Apple Notes', 'the free notes app built into Apple devices', 'la app de notas gratuita integrada en los dispositivos Apple'),
      brand('Bear', 'a beautifully designed Markdown notes app for Apple devices', 'una app de notas en Markdown con un diseño cuidado para dispositivos Apple', { aliases: ['Bear Notes'] }),
      brand('Google Keep', 'a simple app for quick notes, lists and reminders', 'una app sencilla para notas rápidas, listas y recordatorios'),
      brand('Logseq', 'an open-source outliner for networked notes', 'un esquematizador de código abierto para notas enlazadas'),
      brand('Joplin', 'an open-source notes app with end-to-end encrypted sync', 'una app de notas de código abierto con sincronización cifrada de extremo a extremo'),
    ],
  },
  {
    id: 'food_delivery',
    name: { en: 'food delivery apps', es: 'apps de delivery de comida' },
    keywords: [
      'food delivery', 'delivery app', 'food ordering app', 'order food', 'meal delivery app',
      'delivery de comida', 'comida a domicilio', 'reparto de comida', 'pedir comida', 'app de delivery',
      'entrega de comida', 'domicilio de comida',
    ],
    brands: [
      brand('Uber Eats', 'a global food delivery app with a huge restaurant selection', 'una app global de entrega de comida con una enorme selección de restaurantes', { aliases: ['UberEats'] }),
      brand('DoorDash', 'the largest food delivery app in the US', 'la mayor app de entrega de comida de Estados Unidos', { markets: ['us'] }),
      brand('Rappi', 'a Latin American super-app for food, groceries and errands', 'una superapp latinoamericana de comida, supermercado y mandados', { markets: LATAM }),
      brand('Glovo', 'a Barcelona-born app for delivering food and almost anything else', 'una app nacida en Barcelona para pedir comida y casi cualquier otra cosa', { markets: ['es', 'eu'] }),
      brand('PedidosYa', 'a leading food delivery app in much of South America', 'una app de delivery líder en gran parte de Sudamérica', { aliases: ['Pedidos Ya'], markets: ['ar', 'cl', 'pe', 'latam'] }),
      brand('Just Eat', 'a European food ordering platform with a wide restaurant network', 'una plataforma europea de pedidos de comida con una amplia red de restaurantes', { markets: ['es', 'uk', 'eu'] }),
      brand('Deliveroo', 'a UK-based delivery app known for quality restaurants', 'una app británica de reparto conocida por sus restaurantes de calidad', { markets: ['uk', 'eu'] }),
      brand('DiDi Food', "DiDi's food delivery app, strong in Mexico", 'la app de comida a domicilio de DiDi, fuerte en México', { aliases: ['Didi Food'], markets: ['mx', 'co', 'latam'] }),
      brand('Grubhub', 'a long-standing US delivery app popular in big cities and on campuses', 'una app estadounidense veterana, popular en grandes ciudades y campus universitarios', { markets: ['us'] }),
      brand('iFood', "Brazil's leading food delivery app", 'la principal app de entrega de comida de Brasil', { markets: ['br'] }),
    ],
  },
];
