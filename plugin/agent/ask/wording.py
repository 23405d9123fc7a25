"""The planner's words as patterns, for ``cognition``: the task words, where a request splits
into clauses, the cues of each intent, back-references, the words that never start a name, the
facility nouns that end one (English and Finnish), distances, and the forms a condition takes
("If …, …; otherwise …", "X? yes → …, no → …", "fewer than 10 … -> …, else …") with the test it makes."""
from __future__ import annotations

import re
from typing import Any

from ...city import lexicon

#: (task key, regex) in the reader's order, from the lexicon (resources/lexicon/tasks.json)
TASK_WORDS = lexicon.task_patterns()
COUNTRIES = r"sweden|russia|norway|estonia|germany|denmark|france|spain|italy|usa|united states|america|" \
            r"england|britain|uk|canada|japan|china|poland|latvia|lithuania"


#: a distance in digits (groups: number, unit); distances in words are ``lexicon.distances``
DIST = lexicon.distance_re()
#: a kind of plan said bare after a spaced slash, with money after it ("land / station, 1,5 M€ each — which is
#: better?", "maankäyttö / tie 800 000 eurolla, kumpi?"): the two kinds set against each other, not two requests
_SLASH_PLAN_KINDS = (r"(?!(?:charging|chargers?|stations?|land(?:[- ]use)?|zoning|roads?|streets?|maankäyt\w*|kaava\w*|tie|tiet"
                     r"|latausasem\w*|latauspist\w*)\b(?=[^/;]*?(?:€|\beur|\d\s*k\b|million|miljoon|tonni)))")
SPLIT = re.compile(
    # (?<!\s): a split starts where a run of spaces starts; tried inside the run too, a long run of
    # spaces made the search quadratic (2 000 spaces took minutes)
    # "banks ≤ 250 m of X / dentists ≤ 400 m of Y": a spaced slash parts two requests (as ";")
    # when a distance or "near" follows it; "count: schools / parking / fuel" stays one list
    r"(?<!\s)\s*(?:;|\+|\s/\s" + _SLASH_PLAN_KINDS + r"(?=[^/;]*?(?:[≤⩽<]|\bwithin\b|\bnear\b|\d))"
    r"|,\s*(?:plus|and also|also)\b|\s+and also\b(?=\s+(?-i:[a-z]))"   # "overview and also list …"
    r"|\b(?:separately|independently)\b,?|\btwo jobs:?|,?\s*and then\b|,?\s*\bthen\b"
    # a leg on from where the part before ended: "…, continuing to Y", "…, and onward to Y", "…, jatka sieltä Y:lle"
    r"|,\s*(?=(?:and\s+)?(?:on(?:wards?)?|continu\w*(?:\s+on)?|carry\s+on|further)\s+to\b|jatk\w*\s+(?:sieltä|edelleen)\b)"
    r"|,\s*(?:ja\s+)?(?:sitten|sen jälkeen|tämän jälkeen)\b"   # Finnish: "lähin apteekki Kiasmasta, sitten …"
    # Finnish ", ja" before a question of its own: "matka A:lta B:hen, ja montako parkkipaikkaa on …"
    r"|,\s*ja\s+(?=(?:montako|kuinka|paljonko|mik[äa]|mitk[äa]|miss[äa]|mit[äa]|mill[äa]|onko|kerro|n[äa]yt[äa]|"
    r"laske|listaa|l[äa]hin|l[äa]hint[äa]|arvioi)\b)"
    # a Finnish leg from what was just found: "lähin huoltoasema X:ltä, ja sieltä matka Y:lle" (from there), "…, siitä
    # kuinka pitkä matka …" (from it): the leg is a part of its own, never folded into the search before it
    r"|(?:,\s*(?:ja\s+)?|\bja\s+)(?=(?:sieltä|siitä)(?:\s+käsin)?\s+(?:(?:edelleen|vielä|sitten)\s+)?"
    r"(?:matka|matkaa|kuinka|paljonko|montako|miten|lähin|lähimm\w*|tie\w*|ajo\w*|[A-ZÅÄÖ]))"
    # an English leg from what was just found: "… and from there how far to Y", ", from that dentist the road
    # distance to Y", "and from it to Y"
    r"|(?:,\s*(?:and\s+)?|\band\s+)(?:then\s+)?(?=from\s+(?:there|it|that\s+(?!is\b)\w+|this\s+(?!is\b)\w+)\b"
    r"[^,;?]*\b(?:to|how far|distance|nearest|closest|route|drive)\b)"
    # an elliptic follow-up after a comma: "…, entä Leivosessa?", "…, same for Ateneum"
    r"|,\s*(?=entä(?:pä)?\b|(?:and\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:for|with)\b)"
    r"|,?\s*(?:and\s+)?(?:subsequently|afterwards|after that)\b,?"
    r"|[,;]\s*(?:and\s+)?(?:second(?:ly)?|third(?:ly)?|finally|lastly)\b,?"   # "first …, second …"
    r"|\s+(?:→|->)\s+(?=(?-i:[a-z]))"   # "nearest cinema to X → road distance from it to Y"
    r"|\.\s+(?=[A-Z])|\?\s+(?=\w)"
    # a dash before a lowercase clause; "A — an aside — B": the aside stays with A
    r"|\s+[—–]\s+(?:and\s+(?:also\s+)?)?(?=(?-i:[a-zåäö]))(?!(?:which|closer|nearer|better)\b)(?![^—–]*\s[—–]\s)"
    r"|\s+-\s+(?=(?-i:(?:and )?(?:how (?:far|long)|is it))\b)"   # "any pharmacy around Ateneum - how far away?"
    r"|,\s*and\b(?!\s+[^,]*\bor\b)"
    r"|\((?:[a-h]|i{1,3}|iv|[1-9])\)|(?<![\w(])[1-9]\)"
    r"|\band\b(?=\s+(?:is there|are there|do (?:we|you) have|"
    r"the [a-zåäö]+(?: [a-zåäö]+)? (?:nearest|closest)\b|"   # "the dentist nearest to A and the library nearest to B"
    r"how|what|which|the (?:number|nearest|closest|road|distance|route)|(?:the |an? )?(?:overview|summary)|tell|show|give|"
    r"count|list|evaluate|eval|nearest|closest|route|distance|its|score|report|draft|sketch|design|plan|spend|"
    r"state|name|identify|determine|provide|find))"
    r"|,?\s*(?:together|along) with\b|,\s*(?=(?:\w+\s+)?(?:overview|summary)\b)"
    r"|,\s*(?=(?:how|what|which|count|list|evaluate|tell|show|(?:the )?(?:nearest|closest))\b)"
    r"(?!which\b[^,;]*\b(?:closer|nearer)\b))\s*", re.I)
CUES = {
    "participation": r"participation|\bservice\b.*\becology\b|\becology\b|\.geojson\b",
    "compare": r"\b(?:closer|nearer|shorter|quicker)\b|\bvs\.?(?!\w)|\bversus\b",
    "plan": r"\bplan\w*|where should|\bspend\w*|allocat\w*|sort out|upgrades?|\bbuild\w*|construct\w*|\bput\b|"
            r"\bsit(?:e|es|ing)\b|what'?s best|\binvest\w*|\bbudget\b|\bdo it\b|\bupgrade\b|\bimprove\b|\bdraft\w*|"
            r"\bsketch\w*|\bdesign\w*|\bwhat (?:should|can|could) (?:we|i) do\b|\bneeds? (?:\w+ )*?most\b|"
            r"\boptimi[sz](?:e|ed|ing)?\b|\b(?:suunnittele|suunnitelkaa|suunnitella|suunnittelisit\w*|optimoi\w*)\b|"
            r"\bbest (?:place|location|site|spot)s? for\b|suunnitelm\w*|\b(?:" + lexicon.plan_nouns_pattern() + r")\b",
    "evaluate": r"\beval\w*|\bscores?\b|\bassess\w*|how good|\boutcome\b|\bscoring\b"
                r"|\barvioi\w*|\bpisteet\b|\bpistemäär\w*",   # Finnish: "arvioi se", "kerro sen pisteet"
    "sites": r"where each|where (?:the|each|they)|which streets|show me where|list the sites|\blocations?|"
             r"\bstreets?\b.*\bsites?\b|\bsites?\b.*\bstreets?\b|\bwhere\b.*\bsites?\b"
             # "what streets the parcels are on", "the links' streets", "millä kaduilla tontit ovat"
             r"|\bwhat streets\b|\bstreets?\b.*\b(?:parcels?|links?)\b|\b(?:parcels?|links?)\b.*\bstreets?\b"
             r"|\bmitkä kadut\b|\bmill(?:ä|e) kadu\w*|\bkadunnim\w*",   # Finnish: "which streets", "on which streets"
    "summary": r"overview|summary|summari[sz]e|tell me about|describe|what'?s in|\bstats\b|\bstatistics\b|key figures",
    "nearest": r"\bn(?:e|ea|ee|ae)r?e?st\b|\bclose?st\b|\bnearest\b|closest|\blähin\b|\blähimmä\w*|\blähimpä\w*|"
               r"\b(?:shortest|quickest) (?:drive|route|way|walk|trip|ride|journey) to (?:an?|any|the)\b|"
               r"\b(?:reach|get to|come to|hit) first\b",
    "route": r"\broute\b|distance|how far|\bdist\b|→|->|\bdrive\b|\bdriving\b|by road|by car|\bway\b|"
             r"\bget (?:from|to)\b|\bkm\b|\bmetres\b|\bmeters\b|how long|far'?s|"
             # "montako metriä tietä pitkin?" (how many metres by road)  "paljonko on matkaa" (how much way)
             r"\b(?:kilo)?metriä\b|\btietä pitkin\b|\bkuinka kaukana\b|\bmatka\b|\bmatkaa\b"
             # "tiematka / ajomatka A – B" (the road / driving distance), "A on alle 1,5 km:n päässä B:stä" (A is
             # under 1.5 km from B): a distance between two places
             r"|\b(?:tie|ajo|auto|kävely)matka\w*|\bpäässä\b"
             # "Kiasmasta on alle 800 m tietä Oodiin" (from Kiasma it is under 800 m of road to Oodi)
             r"|\b(?:m|km|metriä|kilometriä|metrin|kilometrin)\s+tietä\b"
             r"|\b(?:road|driving|drive)\s+(?:m|km)\b",   # "A to B road m": the distance by road, in metres
    "within": r"\bwithin\b|\bnear\b|\baround\b|\bradius\b|\bof\b",
    "count": r"how many|number of|\bcount\w*\b|\btotal\b|how much|\bmontako\b|\bkuinka monta\b|\bmäärä\w*"
             r"|(?<![\w#])#(?=\s*[^\W\d])",   # "# koulut": the number of schools
    "exists": r"\bany\b|are there|is there|got any|do (?:we|you) have|\byet\b|\bexist\w*",
    # Finnish "is there": "Onko Kiasman lähellä apteekkia?", "Löytyykö Kluuvista pankkia?" (a search of a kind)
    "fi_exists": r"\bonko(?:s|han)?\b|\blöytyykö\b|\byhtään\b",
    "list": (r"\blist\b|\bshow\b|pull up|where are|where can|where do|\bwhich\b|\bfind\b|\blocate\b|\bwhat\b"
             r"|\bgive me\b|\bget me\b"),
}
#: a back-reference, never the idiom's "it" ("… and nearest pharmacy while you're at it" refers to nothing found;
#: it chained the second search to the car park the first one found)
BACKREF = re.compile(r"\b(?:(from|to|of)\s+)?(?<!you're at )(?<!you’re at )(?<!you are at )(?<!while at )"
                     r"(it|there|that (?:one|place|car park|parking|\w+)|this (?:one|\w+)|"
                     r"the result|the same (?:place|one))\b", re.I)
#: Finnish back-references and the role each plays: "sieltä" (from there), "siitä" (from / of it: "200 m päässä
#: siitä"), "sinne" / "siihen" (to there / to it) — what the search before found, as "it" is in English
FI_BACKREF = re.compile(r"\b(sieltä|siitä|sinne|siihen)\b", re.I)
FI_BACKREF_ROLE = {"sieltä": "from", "siitä": "of", "sinne": "to", "siihen": "to"}
#: Finnish verbs (imperative, plural imperative, infinitive) that start a request: never a place, even
#: capitalised before a name ("Laadi Karhulaan suunnitelma": draw up a plan for Karhula)
FI_VERBS = """laadi laatikaa laatia tee tehkää tehdä suunnittele suunnitelkaa suunnitella luo luokaa luoda
ehdota ehdottakaa ehdottaa kerro kertokaa näytä näyttäkää etsi etsikää hae hakekaa laske laskekaa arvioi arvioikaa
anna antakaa listaa listatkaa vertaa vertailkaa selvitä selvittäkää rakenna rakentakaa sijoita sijoittakaa"""
#: a Finnish word for a plan, alone or compounded with its kind ("Latausasemasuunnitelma", "tiesuunnitelma"):
#: a task word, never (the start of) a place name
PLAN_NOUN = re.compile(r"\w*suunnitelm\w*", re.I)
SENTENCE_WORDS = set("""kindly provide report determine locate spend overview two jobs pull compare allocate sort got
whats what's hey hi ok okay could would please need want wanna let lets let's can quick i we've we're i'm i'd give
tell show list find plan build do does is are was were has have any how where which who why when if the a an
and or but so also then nearest closest neerest nearst route distance count number compute calculate evaluate
eval road roads land charging chargers station stations budget with within near from to in of for on at by
via spend we you our my me us it they them there here what's one otherwise else yes no not monday tuesday wednesday
entä entäpä thursday friday saturday sunday january february march april may june july august september october november
december memo council unless provided assuming suppose supposing whether i've i'll we'll you've you're
they're i’m i’d i’ve i’ll we’ve we’re we’ll you’ve you’re among amongst jos mikäli muuten had should
löytyykö onko onkos onkohan""".split()) \
    | set(FI_VERBS.split())
#: enumerators that order a request's parts ("First: nearest pharmacy …; second: how many …", "Ensin …,
#: sitten …"): never a place, even capitalised before a colon
ENUMERATORS = set("""first second third fourth fifth firstly secondly thirdly fourthly lastly finally next
ensin ensiksi ensinnäkin ensimmäiseksi toiseksi kolmanneksi neljänneksi sitten lopuksi viimeiseksi""".split())
SENTENCE_WORDS |= ENUMERATORS
UNITS = set("eur euro euros k€ keur m€ meur km m gp gps ev evs wtc".split())
#: Finnish facility nouns, the last word of a facility's name ("Sunilan tehdas", "Mussalon satama")
FI_FACILITY = r"(?:halli|asema|museo|tehdas|kirkko|koulu|lukio|kirjasto|puisto|tori|talo|kenttä|sairaala|" \
              r"satama|silta|ranta|linna|teatteri|kauppa|keskus|aukio|kappeli|koti|stadion|areena|ravintola|" \
              r"kahvila|apteekki|hotelli|virasto|toimisto|opisto|pysäkki|laituri|katedraali|puutarha|kartano|" \
              r"kylpylä|majakka|linnoitus|kasino|uimala)"
#: the local case endings a Finnish facility noun takes after a name ("Hovinsaaren koululla", "Sunilan tehtaalla"
#: is another stem: not read so)
FI_LOCAL_CASE = r"(?:lla|llä|ssa|ssä|lta|ltä|sta|stä|lle)"
NOUN_TAIL = r"(?:\s+(?!(?:to|from|and|or|the|an?|of|in|on|at|by|near|with|for|via|then|vs|is|are|that|this|these|" \
            r"those|its?|my|our|your|their|some|any|each|every|all|no|one|nearest|closest|lähi\w*)\b)[a-zåäö]+)?" \
            r"\s+(?:park|library|stadium|hospital|school|station|church|museum|centre|center|mall|" \
            r"market|square|garden|hall|campus|tower|bridge|beach|harbou?r|port|airport|cathedral|castle|zoo|pool|" \
            r"arena|theatre|theater|cinema|hotel|clinic|store|shop|gallery|office|pharmacy|garage|parking|" \
            r"kindergarten|university|college|gym|cemetery|playground|chapel|" \
            r"[a-zåäö-]*" + FI_FACILITY + r"(?:n(?=\s+(?:lähellä|luona|vieressä|ympärillä|lähistöllä|" \
            r"kohdalla|edessä|takana)\b)|" + FI_LOCAL_CASE + r")?)\b"
# Finnish: "Sunilan tehdas"; "Mussalon sataman lähellä" (genitive); "Hovinsaaren koululla" (a local case)
#: a Finnish genitive facility noun at the end of a name ("Mussalon sataman"): its base form ends before the
#: "n" (only a Finnish facility noun: the English "station" is no genitive)
GENITIVE_TAIL = re.compile(FI_FACILITY + r"n$")
#: the same noun in a local case ("koululla": at the school): its base form ends before the ending (group 1)
LOCAL_CASE_TAIL = re.compile("(" + FI_FACILITY + ")" + FI_LOCAL_CASE + "$")


metres = lexicon.metres


LEAD_IN = re.compile(r"\s*(?:using|from|with|taking|starting (?:at|from)|for)\s+(?:that|this|the same|it)\b[^,;]*", re.I)
_ELSE = (r"(?:[;,.]?\s*\b(?:otherwise|else|if not|muuten|muussa tapauksessa|jos ei\w*|ellei\w*|"
         r"if no\w*|if there (?:are|is) none|if it does(?:n'?t| not)|"
         r"(?:but )?if (?:it|there|they|the \w+) (?:has|have|are|is|does|do)(?: \w+)? (?:some|any|one)(?: \w+)?)\b"
         r"(?:[,:]|\s*(?:->|→|=>))?\s*(?P<else>.+))?$")   # "else → A to B road m"
#: a sentence before the condition sets the scene ("Budget is two million euros. If …"): no goal of its own
_PREAMBLE = r"^(?:[^.?!;]*?[.:]\s+)?\s*"
#: an inverted condition: "Were there more than five cafés …, …", "Had Kotka fewer than two schools, …" — only
#: with a comparison in it ("Were there any cafés near X, and how many?" is a question, not a condition)
_INVERTED = (r"were(?=\s+there\s+(?:more|fewer|less|at least|at most|no|over|under|only)\b)"
             r"|had(?=\s+[^,;?]{1,40}?\s(?:more|fewer|less|at least|at most|no|over|under|only)\b)")
#: an arrow that joins the two ends of a route inside a condition, not the condition to its branch: "if Teemaa → Old
#: Hat is more than 1,5 km by road, then …", "jos A → B on yli 1,2 km, …" (a comparison follows the second end)
_ROUTE_ARROW_TEST = (r"(?![^,;:→]{1,60}?\s(?:(?:is|are|on|ovat|'s)\s+(?:(?:still|not|no|by road|tietä pitkin)\s+)?"
                     r"(?:more|less|longer|shorter|under|over|above|below|within|at most|at least|greater|further|"
                     r"farther|closer|beyond|yli|alle|vähintään|korkeintaan|enintään|enemmän|vähemmän|lyhyempi|"
                     r"pidempi)\b|exceeds?\b|ylittää\b|alittaa\b"
                     # a sign or a bare comparison word before the number: "if road dist A→B < 1 km:", "jos A→B alle 1 km:"
                     r"|(?:<=|>=|<|>|≤|≥|⩽|⩾)\s*\d|(?:alle|yli|under|over|below|above|within)\s+\d))")
IF_RE = re.compile(_PREAMBLE + r"(?P<kw>if|unless|should|in case(?: of)?|provided(?: that)?|assuming|jos|mikäli|"
                   + _INVERTED + r")\b(?P<cond>.+?)"
                   # (a comma inside brackets is no end of the condition: "if dist(Kiasma, Oodi) < 1 km: …")
                   r"(?:,(?![^()]*\))\s+(?:then\s+)?|\s+then\s+|\s*(?::|→" + _ROUTE_ARROW_TEST + r")\s*"
                   # no comma: "if there's a charger within 500 m of X just tell me the closest one"
                   r"|\s+(?=(?:just\s+|please\s+)?(?:(?:tell|give|show|get|find)\s+me|name\s+it|list\s+them)\b))"
                   r"(?P<then>.+?)" + _ELSE, re.I | re.S)
#: "fewer than 10 car parks in karhula -> land plan 250 k€, else road plan 250 k€": a terse condition
TERSE_IF = re.compile(r"^\s*(?P<kw>)(?P<cond>(?:fewer|more|less|at least|at most|over|under|no|any)\b.+?)\s*(?:->|→|=>)\s*"
                      r"(?P<then>.+?)" + _ELSE, re.I | re.S)
#: "fuel stations in data < 3 → nearest to Lohentie; else count them", "Karhula: kindergartens ≥ 2 → land
#: plan; else road plan": a count compared by a sign right before the arrow (``condition_test`` reads the sign)
TERSE_SIGN = re.compile(r"^\s*(?P<kw>)(?P<cond>[^→;\n]+?\s(?:<=|>=|<|>|≤|≥|⩽|⩾)\s*\d+)\s*\??\s*(?:->|→|=>)\s*"
                        r"(?P<then>.+?)" + _ELSE, re.I | re.S)
#: "≥2 dentists within 400 m of KPMG? → nearest dentist; else → …": the sign and number before the kind
#: counted (one condition, its "?" before the arrow), not three goals
TERSE_SIGN_FIRST = re.compile(r"^\s*(?P<kw>)(?P<cond>(?:<=|>=|<|>|≤|≥|⩽|⩾)\s*\d+\s*[^\W\d][^→;\n]*?)\s*\??\s*"
                              r"(?:->|→|=>)\s*(?P<then>.+?)" + _ELSE, re.I | re.S)
#: "road dist Kiasma->Ateneum <= 500m? then …, otherwise …", "Oodi → Kiasma > 1 km: …; else …": a distance compared by
#: a sign, then the branch after "?" or ":" — only with an otherwise branch (without one, "banks ≤ 250 m of X: how
#: many?" is a search, not a condition)
TERSE_SIGN_THEN = re.compile(r"^(?=.*\b(?:otherwise|else|muuten)\b)\s*(?P<kw>)(?P<cond>[^?:;\n]*?\s(?:<=|>=|<|>|≤|≥|⩽|⩾|"
                             r"under|over|below|above|less than|more than|within|alle|yli)\s*"
                             r"\d+(?:[.,]\d+)?\s*(?:km|m|metres|meters|kilomet\w*)?)\s*(?:\?\s*(?:->|→|=>)?|:|->|→|=>)\s*"
                             r"(?:then\s+|niin\s+)?"
                             r"(?P<then>.+?)" + _ELSE, re.I | re.S)
#: a comparison sign as the words ``condition_test`` reads ("<" → "less than")
_SIGN_WORDS = {"<=": "at most", ">=": "at least", "<": "less than", ">": "more than", "≤": "at most",
               "≥": "at least", "⩽": "at most", "⩾": "at least"}
#: "pharmacy within 200 m of Forum? yes → name it, no → the nearest one"
YES_NO = re.compile(r"^(?P<cond>.+?)\?\s*(?:(?:if|jos)\s+)?(?P<kw>yes|so|(?<=jos\s)(?:on|kyllä|löytyy))\b\s*"
                    r"(?:→|->|:|,|-)?\s*(?P<then>.+?)[,;.]?\s*"
                    # "…, no → …" / "…; if not, …" / "…, if not the nearest …" (no mark needed after "if not");
                    # Finnish "onko …? jos on, …; jos ei, …"
                    r"(?:(?:if|jos)\s+(?:no|not|ei)\b\s*(?:→|->|:|,|-)?|\b(?:no|not)\b\s*(?:→|->|:|,|-))\s*(?P<else>.+)$",
                    re.I | re.S)
#: "Plan chargers in Kotka with 300k if there are none yet": a plan first, its condition after
IF_AFTER = re.compile(r"^(?P<then>\s*(?:please\s+)?(?:plan|draft|sketch|design|build|spend|put|allocate|invest|compare)\b.+?)"
                      # "Compare road and land plans at 400k, but only if …": the condition after "but only"
                      r",?\s+(?:(?:but\s+)?only\s+)?(?P<kw>if|unless|provided(?: that)?)\b(?P<cond>.+?)" + _ELSE, re.I | re.S)
NEGATED = {">=": "<", "<": ">=", ">": "<=", "<=": ">"}


#: the comparison words of a condition (group 1)
_COMPARE = (r"(at least|no fewer than|more than|over|above|greater than|farther than|further than|longer than|"
            r"exceeds?|exceeding|beyond|under|below|less than|fewer than|at most|closer than|shorter than|within|"
            # Finnish: "enemmän kuin kaksi", "vähintään 3", "yli 2 km", "korkeintaan viisi"
            r"enemmän kuin|yli|vähintään|ainakin|vähemmän kuin|alle|korkeintaan|enintään)")


def _op(word: str) -> str:
    """The sign a comparison word makes ("under" → "<")."""
    op = {"at least": ">=", "no fewer than": ">=", "at most": "<=", "within": "<=", "vähintään": ">=",
          "ainakin": ">=", "korkeintaan": "<=", "enintään": "<="}.get(word)
    if op is None:
        op = ">" if word in ("more than", "over", "above", "greater than", "farther than", "further than",
                             "longer than", "exceed", "exceeds", "exceeding", "beyond", "enemmän kuin", "yli") else "<"
    return op


def condition_test(cond: str, counting: bool) -> dict[str, Any]:
    """The comparison a condition makes: {"op", "value"}: a count (``counting``: "at least
    two schools within 800 m" tests the count, the 800 m is the radius), else a distance in
    m or a score."""
    low = re.sub(r"(?<![-=<>])(<=|>=|<|>|≤|≥|⩽|⩾)(?=\s*\d)", lambda m: " " + _SIGN_WORDS[m.group(1)] + " ",
                 cond.casefold())
    found = [m for m in re.finditer(_COMPARE + r"\s+(\d+(?:[.,]\d+)?|" + lexicon.count_pattern()
                                    + r"|any)\b\s*(?:(" + lexicon.unit_pattern() + r")(?!\w))?", low)
             if bool(m.group(3)) != counting and not (counting and m.group(1) == "within")]
    m = found[0] if found else None
    if not m:   # the comparison after the number: "three or more fuel stations", "2 km or less"
        after = [a for a in re.finditer(r"\b(\d+(?:[.,]\d+)?|" + lexicon.count_pattern() + r")\s*(?:("
                                        + lexicon.unit_pattern() + r")(?!\w)\s*)?(?:\S+\s+)?"
                                        r"(or more|or over|or above|or fewer|or less|or under|tai enemmän|tai yli"
                                        r"|tai vähemmän|tai alle)\b", low)
                 if bool(a.group(2)) != counting]
        if after:
            a = after[0]
            value = lexicon.count_value(a.group(1)) or 0.0
            if a.group(2):
                value *= lexicon.unit_metres(a.group(2))
            more = a.group(3).split()[-1] in ("more", "over", "above", "enemmän", "yli")
            return {"op": ">=" if more else "<=", "value": value}
    if not m and not counting:   # "within walking distance (say 800 m)", "close — under 1 km —": the distance said
        d = DIST.search(low)
        if d and re.search(r"\bwithin\b|\bclose\b|\bwalking distance\b|\bunder\b|\bless\b", low[:d.start()]):
            return {"op": "<=", "value": metres(d)}
        # "under one and a half kilometres", "more than half a kilometre": a distance in words after
        # the comparison (the lexicon reads the whole amount; the pattern above only whole numbers)
        words = lexicon.distances(low)
        said = re.search(_COMPARE + r"\s*$", low[:words[0].start]) if words else None
        if said:
            return {"op": _op(said.group(1)), "value": words[0].metres}
        # "alle kilometrin päässä", "under a km from": a unit with no number after the comparison is one of it
        one = re.search(_COMPARE + r"\s+(?:an?\s+)?(" + lexicon.unit_pattern() + r")(?!\w)", low)
        if one:
            return {"op": _op(one.group(1)), "value": lexicon.unit_metres(one.group(2))}
    if not m:
        if counting and re.search(r"\bno\b|\bnone\b|n't\b|\bnot any\b|\bwithout\b", low):
            return {"op": "<", "value": 1.0}   # "if there are no chargers …"
        return {"op": ">=", "value": 1.0}   # "if there are any …", "if X has …"
    op = _op(m.group(1))
    value = lexicon.count_value(m.group(2)) or (1.0 if m.group(2) == "any" else 0.0)
    if m.group(3):
        value *= lexicon.unit_metres(m.group(3))
    return {"op": op, "value": value}


JOINED = re.compile(r"\s*(?:,|&|/|\+|\band\b|\bja\b|\bsekä\b|\btai\b|\bor\b|"   # "apteekit ja hammaslääkärit"
                    r"\bplus\b|\bas well as\b|,\s*and\b)\s*(?:(?:the|any|all|also)\s+)?"
                    r"(?:(?:nearest|closest|number of)\s+)?", re.I)


#: "plan chargers near Kiasma", "… within 400 m of Oodi", "… around Kaisaniemen puisto"
NEAR_SLOT = re.compile(r"\b(?:near|nearby|around|close to|next to|beside|within\s+\S+(?:\s*(?:m|km|metres|meters))?\s+of)"
                       r"\s+(?:the\s+)?$", re.I)
#: a plan asked for without a task word or money ("where should …", "draft a plan", "best place for")
#: ("an optimised plan", "optimise the centre", "suunnittele jotain Kotkaan", "Tee suunnitelma Karhulaan": a plan
#: asked with neither kind nor budget asks for both; v14-ai-02 had been "I could not read …")
PLAN_ASK = (r"where should|sort out|what'?s best|\b(?:an?|the|some|new) (?:\w+ )?plan\b|\boptimi[sz](?:e|ed|ing)?\b|"
            r"\b(?:suunnittele|suunnitelkaa|suunnitella|suunnittelisit\w*|optimoi\w*)\b|\bsuunnitelma(?:n|t)?\b|"
            r"\bdraft|\bsketch|\bdesign|"
            r"\bwhat (?:should|can|could|do) (?:we|i) "
            r"(?:do|build|fund|spend it on|invest in)\b|"
            r"\bneeds? (?:\w+ )*?most\b|(?:^|\b(?:please|you|we|us|to)\s+)"
            r"(?:plan|draft|sketch|design)\b|\bplans\b|"
            r"\bbest (?:place|location|site|spot)s? for\b")
#: the reading rules' patterns (``rules``), by name. Those ending in ``_before`` are tested on the
#: text just before a place (case ignored); the others on the clause with its places masked and
#: its case folded, so they are written in lower case.
_ON_LOW = {
    "by_road": r"\bby road\b|\broad (?:distance|route)\b",
    "road_task": r"\broads?\b(?! distance| route)",
    "same_money": r"same (?:money|budget|amount)",
    "geojson": r"\b[\w./-]+\.geojson\b",
    "compare_words": r"compare|against|versus|\bvs\b|better|\bor\b",
    "which_of_closest": r"\bwhich of\b.*\b(?:shortest|quickest|closest|nearest|shorter|quicker)\b",
    "or": r"\bor\b",
    "closer_to": r"\b(?:closer|nearer)\b(?:\s+\w+){0,3}?\s+(?:to\s+)?",
    "plan_ask": PLAN_ASK,
    "another": r"\b(?:another|second|other)\b",
    "some_them": r"\b(?:some|them|those|ones?|more)\b",
    "do_it": r"\bdo it\b",
    "region_facts": r"residents|inhabitants|population|buildings|road km|kilomet\w* of road|junctions|dead ends",
    "what_around": r"\bwhat(?:'?s| is| are| lies)\b.*\b(?:around|in|near)\b",
    "those": r"\b(?:those|these|them|they)\b",
    "those_it": r"\b(?:those|these|them|they|it)\b",
    "report": r"\b(?:report|name|give)\b",
    "one": r"\bones?\b",
    "how_far": r"how (?:many|far)|distance|route|by road|metres|meters|\b(?:kilo)?metriä\b|tietä pitkin|kuinka kaukana",
    "near": r"\bnear(?:by)?\b|\baround\b|\bclose to\b|\bnext to\b",
    "what_lies": r"what lies|what is|anything|what'?s",
    "near_no_kind": r"\bnear\b|\baround\b|\bclose to\b",
    "from": r"\bfrom\b",
    "to": r"\bto\b",
    "how_many": r"\bhow many\b|\bnumber of\b|\bmontako\b|\bkuinka monta\b",
    "numbers_only": r"\b(?:numbers?|counts?|totals?)(?: only)?\b|\bmontako\b|\blukumäär\w*",
    "terse_filler": r"\b(?:a|an|the|in|for|at|on|of|please|plan|plans|some|new|more)\b",
    # what a follow-up that only names another kind holds besides it: "and restaurants?", "what about schools?"
    "kind_only_filler": r"\b(?:and|also|plus|what|how|about|of|the|any|many|are|is|there|too|as well|please|"
                        r"same|for|with|count|number)\b",
    "how_far_bare": r"^\W*(?:and\s+)?how far(?: away)?(?: by road| on foot| by car)?\W*$",
    # where a named place is: "Where is Oodi?", "where's Kiasma", "Missä on Otsonkallio?", "missä Kiasma sijaitsee"
    "where_is": r"^\W*(?:(?:and|also|so|ja|entä)\W+)?(?:where(?:'s|’s|\s+is|\s+are|\s+exactly\s+is)|whereabouts\s+is|"
                r"missä\s+(?:on|sijaitsee)|missä\b.*\bsijaitsee)\b",
    # a yes / no question about the place just found: "Also: is it within 300 m?", "onko se alle 400 metrin päässä?"
    # a list of places, then which of them: "Of A, B and C, which one is nearest to X?"
    "which_of_list": r"^\W*(?:of|among(?:st)?|out of|between)\b[^?]*\bwhich\b|\bwhich (?:one )?of (?:these|those|them)\b",
    # what stands between the places of a route's legs ("A → B, A → C", "A to B and C to D", "A → B → C")
    "leg_arrow": r"\s*(?:→|->|=>|⇒)\s*|\s+to\s+(?:the\s+)?|–",
    "from_to_gap": r"\s+(from|to)\s+(?:the\s+)?",
    "leg_sep": r"(?:\s*\([^()]*\))?\s*(?:,|;|&|\band\b|\bja\b|\bplus\b)\s*(?:(?:and|also|then)\s+)?(?:from\s+(?:the\s+)?)?",
    "is_it": r"^\W*(?:(?:and|also|plus|but|ja|entä)\W+)*(?:is|isn'?t|would|onko|olisiko)\s+"
             r"(?:it|that|that one|this one|the \w+|se|sinne|tämä)\b",
}
_ANY_CASE = {
    "it": r"\bit\b",
    # a question word that starts a sentence, capitalised, before a name ("Missä Ateneum sijaitsee?")
    "asking_word": r"missä|mistä|mihin|mikä|mitkä|montako|kuinka|onko|paljonko|kerro|näytä|anna|etsi|listaa|laske|"
                   r"where(?:'s|’s)?|whereabouts|what(?:'s|’s)?|which|how|tell|show|give|list|find|count",
    "it_that": r"\b(?:it|that|this|that one|this one)\b",
    # how a route is measured, and nothing else: "road metres please", "(km by road)", "metres each"
    "measure_only": r"\W*(?:(?:in|by|on|the|road|car|drive|driving|metres|meters|m|km|kilometres|kilometers|each|"
                    r"distance|distances|length|please|pls|per leg|for each|both|all|metriä|tietä pitkin)\W*)+",
    "each": r"\b(?:to|from|for|of) (?:each|both)\b|\beach\b|\bboth\b|\bkummastakin\b|\bmolemmista\b|\bkustakin\b",
    "in_case": r"(?:ss|ll)[aä]$",   # a Finnish name said in an area's case: "Kluuvissa", "Kotkassa"
    # "from there" that starts a leg to a place said in the same clause ("from there to X", "and from there how
    # far to X", "how far to X from there"): the leg starts at what the search before found, not its start place
    "from_there_to": r"\bfrom there\b.*\bto\b|\bto\b.*\bfrom there\b",
    "origin_before": r"\b(?:to|from|near|of|around|for)\s+(?:the\s+)?$",
    "route_role": r"(?:\b(from|to)|(→|->))\s+(?:the\s+)?$",
    "to_the_before": r"\b(?:to|from|of|near|around)\s+the\s+$",
    "to_before": r"\bto\s+(?:the\s+)?$",
    "target_colon": r"\s*(?:from\s+|to\s+)?[^:,;?]+:\s*\S",   # "X: A or B, which is closer?": X first
    "center_before": r"\b(?:of|near|around|from|to)\s+(?:the\s+)?$",
    "area_before": r"\b(?:in|on|along|inside|within|around|at)\s+(?:the\s+)?$",
    # a step after a step: "…, then …", "→ …", "after that …" (what "it" then means is the step's result)
    "sequence": r"\b(?:then|after that|afterwards|next|subsequently|thereafter|sitten|sen jälkeen|tämän jälkeen)\b"
                r"|→|->|;",
    # a count of several kinds asked kind by kind, or compared: "how many of each", "more cafés or shops?",
    # "montako kutakin", "kumpia on enemmän" (no total of the kinds together)
    "kinds_apart": r"\b(?:each|both|apiece|respectively|separately|per kind|by kind|vs\.?|versus|compared?|more|"
                   r"most|fewer|less|which|kumpi\w*|kumpaakin|kutakin|kunkin|molempia|erikseen|enemmän|vähemmän|"
                   r"eniten|vai)\b",
    # a question that adds to the one before about the same topic: "… nearest library from there? also how many
    # parking spots within a kilometre of it" ("and" alone after a question goes on from what it found)
    "additive_open": r"^\W*(?:(?:and|ja)\s+)?(?:also|plus|in addition|additionally|besides|myös|lisäksi)\b",
}
#: a word asked for as a kind of place: "nearest ATM", "any post offices", "how many bus stops"
KIND_CUE = re.compile(r"\b(?:nearest|closest|any|how many|number of|are there|is there|count|list|find)\b"
                      r"(?:\s+(?:the|a|an|of|all|public))*\s*$", re.I)
#: a place named by its kind: "near the school", "from the library"
THE_KIND = re.compile(r"\b(?:near|to|from|around|of|by|next to|close to)\s+the\s+$", re.I)
#: a name in an area's place: "in Espoo", "inside Kallio", "around Tapiola"
AREA_BEFORE = re.compile(r"\b(?:in|inside|around|within)\s+(?:the\s+)?$", re.I)
#: a name where a district or town stands in a plan or search: "near Kamppi", "a plan for Espoo"
NEAR_FOR = re.compile(r"\b(?:near|nearby|close to|next to|beside|for)\s+(?:the\s+)?$", re.I)
W: dict[str, re.Pattern[str]] = {**{k: re.compile(v) for k, v in _ON_LOW.items()},
                                 **{k: re.compile(v, re.I) for k, v in _ANY_CASE.items()}, "near_slot": NEAR_SLOT}


# ------------------------------------------------------------------ names and spans (``cognition``)
COUNTRY = re.compile(COUNTRIES, re.I)
#: ", Sweden" / "in Estonia": a country said next to a region name
COUNTRY_SAID = re.compile(r"(?:,\s*|\bin\s+)(" + COUNTRIES + r")\b", re.I)
#: the words of a name-like span, and of what a found name leaves over
NAME_TOKEN = re.compile(r"[\w'’€-]+")
NAME_WORD = re.compile(r"[\w'’-]+")
NEXT_LOWER_WORD = re.compile(r"\s+([a-zåäö][\w-]+)")
_CAP_WORD = r"[A-ZÅÄÖ](?:[\w’'-]|\.(?!\s))*"
#: a run of capitalised words (and "de", "la", "von", "van"), with a trailing facility noun (group 2)
NAME_RUN = re.compile(r"(?:(?<=^)|(?<=[\s(\"'“]))(" + _CAP_WORD + r"(?:\s+(?:" + _CAP_WORD + r"|(?:de|la|von|van)\b))*)"
                      r"(" + NOUN_TAIL + r")?")
SENTENCE_END = re.compile(r"[.?!;:]\s*$")
#: a list said after a colon: a word that a joiner and a capitalised word follow ("… closer to Helilä: Hamina or
#: Marttila?", "X: A, B and C") is the list's first item, not a sentence's first word
LIST_AFTER_COLON = re.compile(r":\s*$"), re.compile(r"\s*(?:,|&|/|\bor\b|\band\b|\bvai\b|\btai\b|\bja\b)\s*"
                                                    r"(?:the\s+)?[A-ZÅÄÖ]")
#: "(not counting Svenska Teatern itself)": a place named only to be left out
LEFT_OUT = re.compile(r"\((?:not counting|excluding|except|apart from|other than)\b[^)]*\)", re.I)
#: "Oodi (the library)": a facility word in brackets after a name
BRACKET_OPEN = re.compile(r"\s*\((?:the |a |an )?")
BRACKET_CLOSE = re.compile(r"\s*\)")
#: "Kiasma-Ateneum": two names joined by a hyphen
HYPHEN_PAIR = re.compile(r"(?<![\w-])([A-ZÅÄÖ][\w']+)-([A-ZÅÄÖ][\w']+)(?![\w-])")
