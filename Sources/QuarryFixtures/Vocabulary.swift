// Word lists behind the realistic values: names (about one in four with
// letters beyond ASCII — José, Zoë, Müller, Łukasz, 佐藤 — so that `[cd]`
// comparisons meet real text), companies, cities, job titles, departments,
// words for titles and sentences. All literals here are NFC, as the store
// keeps strings, so values built from them need no normalization pass.
// Lists are append-only in spirit: reordering one changes every fixture
// made from it (the tests pin a few values).

enum Vocabulary {
    static let firstNames = [
        "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
        "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
        "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sandra", "Steven", "Ashley",
        "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kevin", "Carol", "Brian", "Amanda",
        "George", "Melissa", "Timothy", "Deborah", "Ronald", "Stephanie", "Jason", "Rebecca", "Ryan", "Laura",
        "Anna", "Peter", "Sophie", "Lucas", "Emma", "Noah", "Olivia", "Liam", "Mia", "Ethan",
        "José", "Zoë", "Łukasz", "Jürgen", "Søren", "Françoise", "Chloé", "Björn", "Núria", "Mikaël",
        "Renée", "Ångström", "Åsa", "Dvořák", "İlkay", "Małgorzata", "Jörg", "Inês", "Héctor", "Siân",
    ]
    static let lastNames = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "Müller", "Schröder", "García", "Núñez", "Kowalczyk", "Sørensen", "Łukaszewicz", "Dvořáková", "Öztürk", "Gonçalves",
        "O'Brien", "Lefèvre", "Böhm", "Jiménez", "Wójcik", "Ægidius", "Østergaard", "Côté", "Peña", "Štěpánek",
    ]
    /// Family name first, as written in Japanese and Chinese.
    static let eastAsianNames = [
        "佐藤 健", "鈴木 花子", "高橋 翔", "田中 美咲", "伊藤 大輔", "渡辺 愛", "李 娜", "王 伟", "张 敏", "刘 洋",
        "김 민준", "이 서연",
    ]
    static let companyStems = [
        "Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Wonka", "Tyrell", "Cyberdyne", "Soylent",
        "Hooli", "Vandelay", "Massive Dynamic", "Aperture", "Black Mesa", "Gringotts", "Oceanic", "Monarch", "Nakatomi", "Dunder Mifflin",
        "Müller & Söhne", "Señor Café", "Łódź Works", "Zoë's Kitchen", "Nordisk Ø", "Café Crème", "佐藤商事", "Hanse Logistik",
        "Blue Harbor", "Northwind", "Contoso", "Fabrikam", "Tailspin", "Woodgrove", "Litware", "Proseware",
    ]
    static let companySuffixes = [" Inc.", " Ltd", " GmbH", " LLC", " S.A.", " Group", " & Co.", " Holdings", "", " AG"]
    static let publishers = [
        "Penguin", "HarperCollins", "Macmillan", "Hachette", "Simon & Schuster", "Gallimard", "Suhrkamp", "Éditions du Seuil",
        "Anagrama", "Wydawnictwo Literackie", "Shinchōsha", "Faber & Faber", "Bloomsbury", "Norton", "Random House", "Fischer",
    ]
    static let cities = [
        "New York", "London", "Paris", "Berlin", "Madrid", "Rome", "Tokyo", "Sydney", "Toronto", "Chicago",
        "São Paulo", "México City", "Zürich", "München", "Kraków", "Łódź", "Göteborg", "Malmö", "Reykjavík", "Besançon",
        "Düsseldorf", "Córdoba", "Brno", "Århus", "İstanbul", "東京", "大阪", "Seoul", "Austin", "Dublin",
    ]
    static let countries = [
        "United States", "United Kingdom", "France", "Germany", "Spain", "Italy", "Japan", "Australia", "Canada", "Brazil",
        "México", "Switzerland", "Poland", "Sweden", "Iceland", "Czechia", "Denmark", "Türkiye", "Ireland", "Côte d'Ivoire",
    ]
    static let streets = [
        "Main Street", "Oak Avenue", "Maple Drive", "Hauptstraße", "Rue de la Paix", "Calle Mayor", "Königsallee", "High Street",
        "Elm Road", "Via Roma", "ulica Długa", "Strøget", "Park Lane", "Sunset Boulevard", "Rua Augusta", "Broadway",
    ]
    static let departments = [
        "Sales", "Engineering", "Marketing", "Finance", "Human Resources", "Legal", "Operations", "Research",
        "Support", "Design", "Product", "Logistics", "Procurement", "Quality", "Security", "Facilities",
        "Data Science", "Customer Success", "Public Relations", "Training",
    ]
    static let regions = ["", " EMEA", " Americas", " APAC", " North", " South", " East", " West", " Central", " Labs", " Online", " Partners"]
    static let jobTitles = [
        "Software Engineer", "Senior Software Engineer", "Engineering Manager", "Product Manager", "Designer",
        "Data Analyst", "Accountant", "Sales Representative", "Account Executive", "Marketing Specialist",
        "HR Generalist", "Recruiter", "Lawyer", "Operations Manager", "Support Engineer", "Research Scientist",
        "Chief Executive Officer", "Chief Technology Officer", "Intern", "Consultant",
    ]
    static let titleWords = [
        "Night", "Garden", "River", "Silence", "Empire", "Winter", "Stranger", "Light", "Shadow", "Sea",
        "Mountain", "Secret", "Memory", "Glass", "Fire", "Storm", "Island", "Letters", "Journey", "Kingdom",
        "Café", "Señorita", "Mädchen", "Été", "Żuraw", "Fjord", "Sakura", "Crème", "Noël", "Ödön",
    ]
    static let titlePatterns = ["The %@", "The %@ of the %@", "%@ and %@", "A %@ in the %@", "Beyond the %@", "%@", "The Last %@", "%@ at %@"]
    static let verbs = [
        "Write", "Review", "Fix", "Plan", "Call", "Email", "Prepare", "Update", "Test", "Deploy",
        "Clean", "Order", "Schedule", "Draft", "Refactor", "Document", "Book", "Pay", "Renew", "Archive",
    ]
    static let objects = [
        "report", "pull request", "budget", "meeting", "invoice", "release notes", "backlog", "dashboard", "contract", "slides",
        "travel", "newsletter", "roadmap", "onboarding", "server", "database migration", "café order", "résumé", "naïve test", "design doc",
    ]
    static let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
        "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
        "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "commodo",
        "über", "naïve", "façade", "coöperate", "piñata", "smörgåsbord", "jalapeño", "crème", "déjà", "vu",
    ]
    static let projects = ["Apollo", "Gemini", "Mercury", "Atlas", "Orion", "Phoenix", "Hermes", "Zephyr", "Nova", "Aurora",
                           "Borealis", "Kestrel", "Ibis", "Ørsted", "Mistral", "Sirocco", "Tōkaidō", "Vega", "Lyra", "Draco"]
    static let colors = ["red", "green", "blue", "yellow", "purple", "orange", "black", "white", "teal", "magenta"]
    static let statuses = ["active", "pending", "closed", "archived", "draft"]
    static let domains = ["example.com", "example.org", "example.net", "mail.example", "corp.example", "test.example"]
}
