"""The place-name resolver on the bundled OSM data, and planners' words for facilities and money."""
import pytest

from cityplanner.plugin.city.names import name_index, normalise
from cityplanner.plugin.city.vocabulary import category_terms, money_amounts


@pytest.fixture(scope="module")
def helsinki():
    return name_index("helsinki")


def test_normalise_folds_case_diacritics_and_punctuation():
    assert normalise("  Lönnrotinkatu 5-7! ") == "lonnrotinkatu 5 7"
    assert normalise("ÅBO, Tölö") == "abo tolo"


@pytest.mark.parametrize("written,name,how", [
    ("Stockmann", "Stockmann", "exact"),
    ("stockmann", "Stockmann", "exact"),
    ("Stokman", "Stockmann", "fuzzy"),                # misspelt
    ("Q-Park Erotaja", "Q-Park Erottaja", "fuzzy"),
    ("Lonnrotinpuistikko", "Lönnrotinpuistikko", "exact"),   # no diacritics typed
    ("Gardesstaden", "Kaartinkaupunki", "alias"),     # name:sv of a place node
])
def test_names_resolve_as_planners_write_them(helsinki, written, name, how):
    res = helsinki.resolve(written)
    assert res.status == "found" and res.feature.name == name and res.candidates[0].how == how


def test_partial_names_and_words_of_a_longer_name():
    kotka = name_index("kotka")
    assert kotka.resolve("Teboil").feature.name == "Teboil Karhula Tikankatu"
    assert kotka.resolve("Karhula").feature.kind == "region"      # the whole kotka extract is Karhula


def test_a_name_not_in_the_data_is_said_so_with_candidates(helsinki):
    res = helsinki.resolve("Olympic Stadium")
    assert res.status == "missing" and res.message.startswith("'Olympic Stadium' is not in the helsinki data")
    kamppi = helsinki.resolve("Kamppi")   # two near-misses: no guess, a question
    assert kamppi.status == "missing" and "did you mean" in kamppi.message and "Kampin kappeli" in kamppi.message


def test_scan_finds_names_in_free_text(helsinki):
    text = "nearst cinema to Q-Park Erotaja then distance from it to Kappeli"
    assert [m.feature.name for _, _, m in helsinki.scan(text)] == ["Q-Park Erottaja", "Kappeli"]


def test_poi_tags_narrow_categories(helsinki):
    tags = [helsinki.poi_tags.get(f.id, {}) for f in helsinki.features if f.kind == "poi" and f.category == "clinic"]
    assert {t.get("amenity") for t in tags} >= {"pharmacy", "dentist"}


@pytest.mark.parametrize("text,keur", [
    ("We've got €1.2 million for chargers", 1200), ("we can spend 250 000 euros", 250), ("2 M€", 2000),
    ("with 300k?", 300), ("400 grand", 400), ("EUR 700,000 on roads", 700), ("0,4 M€", 400), ("budget 500", 500),
    ("we have a million", 1000), ("half a million euros", 500), ("a quarter of a million euros", 250),
    ("two and a half million", 2500), ("three hundred thousand euros", 300), ("a million and a half euros", 1500),
    ("1,1 milj. €", 1100),
])
def test_money_in_any_common_form_is_k_euros(text, keur):
    assert [m.keur for m in money_amounts(text)] == [keur]


def test_distances_are_not_money():
    assert money_amounts("gyms within 500 m of Forum, 1km") == []
    assert money_amounts("a district of a million residents") == []


@pytest.mark.parametrize("text,category,tag", [
    ("the closest pharmacy", "clinic", "amenity=pharmacy"), ("petrol stations", "fuel", ""),
    ("EV chargers", "charging", ""), ("a car park", "parking", ""), ("nearest GP", "clinic", "amenity=doctors|clinic"),
    ("List the parks", "green", "leisure=park"),
])
def test_category_synonyms(text, category, tag):
    t = category_terms(text)[0]
    assert t.category == category and t.describe() == (f"{category} ({tag})" if tag else category)


def test_a_finnish_case_ending_on_a_data_name_is_that_name():
    """"lähin apteekki Kiasmasta", "Otsonkalliolta", "Ateneumin": the name without the ending (from
    the lexicon's list), taken only when the stem is exactly a data name — never a guess."""
    for region, written, name in (("helsinki", "Kiasmasta", "Kiasma"), ("helsinki", "Ateneumin", "Ateneum"),
                                  ("kotka", "Otsonkalliolta", "Otsonkallio"), ("helsinki", "Kiasmaan", "Kiasma")):
        res = name_index(region).resolve(written)
        assert res.status == "found" and res.feature.name == name, (written, res.message)
    assert name_index("helsinki").resolve("Espoosta").status == "missing"   # 'Espoo' is no data name


@pytest.mark.parametrize("region, written, name", [
    ("helsinki", "Väinämöiseltä", "Väinämöinen"), ("helsinki", "Väinämöisen", "Väinämöinen"),
    ("helsinki", "Väinämöiseen", "Väinämöinen"), ("helsinki", "Väinämöisessä", "Väinämöinen"),
    ("helsinki", "Väinämöisestä", "Väinämöinen"), ("helsinki", "Väinämöisellä", "Väinämöinen"),
    ("helsinki", "Väinämöistä", "Väinämöinen"), ("helsinki", "Ilmariselle", "Ilmarinen"),
    ("kotka", "Neste Huttuselta", "Neste Huttunen"),
    ("helsinki", "Kolera-altaalta", "Kolera-allas"), ("helsinki", "Kolera-altaaseen", "Kolera-allas"),
    ("helsinki", "Kolera-altaan", "Kolera-allas"), ("helsinki", "Kuvatehtaalta", "Kuvatehdas"),
    ("helsinki", "Keitaassa", "Keidas"),
])
def test_a_finnish_name_whose_stem_is_not_its_nominative_is_that_name(region, written, name):
    """-nen names in every case (the stem is -se-: "Väinämöiseltä"), -as names with their consonant
    gradation reversed ("Kolera-altaalta": the stem is strong, the nominative weak): the lexicon's stem
    forms and gradation pairs, taken only where the nominative is exactly a data name."""
    res = name_index(region).resolve(written)
    assert res.status == "found" and res.feature.name == name and res.candidates[0].how == "alias", (written, res.message)


@pytest.mark.parametrize("written", ["Virtaselta", "Nieminen", "Lahtisen", "Kolera-altaalla-tie"])
def test_a_finnish_stem_the_data_lacks_is_no_name(helsinki, written):
    """No likeness guess: 'Virtaselta' would be Virtanen, which the data lacks."""
    assert helsinki.case_stem(written) is None


@pytest.mark.parametrize("region, written", [("kotka", "K-Market Karhula"), ("kotka", "S-Market Karhula"),
                                             ("helsinki", "K-Market Kallio"), ("helsinki", "S-Market Kluuvi")])
def test_a_hyphen_brand_the_data_lacks_is_no_other_place_sharing_a_word(region, written):
    # "K-Market" is generic word by word ("k", "market"), but as written it is a name's own word: the
    # district after it must not carry the match to "Teboil Karhula Tikankatu" or the district itself
    from cityplanner.plugin.city.names import name_index

    assert name_index(region).resolve(written).status == "missing", written


def test_a_hyphen_brand_the_data_has_still_reads():
    from cityplanner.plugin.city.names import name_index

    assert name_index("helsinki").resolve("K-Market Esplanadi").feature.name == "K-Market Esplanadi"
    assert name_index("helsinki").resolve("the K-Market").feature.name.startswith("K-Market")


@pytest.mark.parametrize("text, spans", [
    # the whole name with its parenthesis, not a look-alike's alias ("Basecamp") plus its words
    ("how far is Eerikin Pippuri from Base Camp (Nepalese cuisine)?",
     [("Eerikin Pippuri", "Eerikin Pippuri"), ("Base Camp (Nepalese cuisine)", "Base Camp (Nepalese cuisine)")]),
    ("bank within 300 m of Zio (Shoe store)", [("Zio (Shoe store)", "Zio (Shoe store)")]),
    # the part before the parenthesis is that place exactly; "Zio" stays the shop of that own name
    ("from Base Camp to Kiasma", [("Base Camp", "Base Camp (Nepalese cuisine)"), ("Kiasma", "Kiasma")]),
    ("from Zio to Kiasma", [("Zio", "Zio"), ("Kiasma", "Kiasma")]),
    ("from Stop@Station to Frankly My Dear",
     [("Stop@Station", "Stop@Station"), ("Frankly My Dear", "Frankly My Dear (Preloved clothes)")]),
])
def test_a_data_name_with_a_parenthesis_or_at_sign_matches_whole(helsinki, text, spans):
    assert [(text[s:e], m.feature.name) for s, e, m in helsinki.scan(text)] == spans
    assert all(m.how != "fuzzy" for _, _, m in helsinki.scan(text))
