-- Schema of a real Bridgemate BWS file written by Bridgemate Control Software in 2025 (Access 97,
-- Jet 3): `mdb-schema FILE` (mdbtools 1.0.0), table and column definitions only, no data.
-- From github.com/JFrunk/bridge-bidding-app, path test-results/1766528722-gmeDcSvigL@251223M.BWS
-- (commit 6e21788bcf71846173bbb718e066ae2b0e85dbd2); the file itself is not kept here (no licence).
-- tools/make_bws_fixtures.py builds the 2025-layout fixtures from these definitions, and
-- tests/bws_schema.rs checks every fixture table against them.

CREATE TABLE [BiddingData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[Counter]			Integer, 
	[Direction]			Text (2), 
	[Bid]			Text (10), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Erased]			Boolean NOT NULL
);

CREATE TABLE [Clients]
 (
	[ID]			Long Integer, 
	[Computer]			Text (255)
);

CREATE TABLE [HandRecord]
 (
	[Section]			Integer, 
	[Board]			Integer, 
	[NorthSpades]			Text (13), 
	[NorthHearts]			Text (13), 
	[NorthDiamonds]			Text (13), 
	[NorthClubs]			Text (13), 
	[EastSpades]			Text (13), 
	[EastHearts]			Text (13), 
	[EastDiamonds]			Text (13), 
	[EastClubs]			Text (13), 
	[SouthSpades]			Text (13), 
	[SouthHearts]			Text (13), 
	[SouthDiamonds]			Text (13), 
	[SouthClubs]			Text (13), 
	[WestSpades]			Text (13), 
	[WestHearts]			Text (13), 
	[WestDiamonds]			Text (13), 
	[WestClubs]			Text (14)
);

CREATE TABLE [IntermediateData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[PairNS]			Integer, 
	[PairEW]			Integer, 
	[Declarer]			Integer, 
	[NS/EW]			Text (2), 
	[Contract]			Text (10), 
	[Result]			Text (10), 
	[LeadCard]			Text (10), 
	[Remarks]			Text (255), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Processed]			Boolean NOT NULL, 
	[Processed1]			Boolean NOT NULL, 
	[Processed2]			Boolean NOT NULL, 
	[Processed3]			Boolean NOT NULL, 
	[Processed4]			Boolean NOT NULL, 
	[Erased]			Boolean NOT NULL, 
	[SuspiciousContract]			Integer
);

CREATE TABLE [PlayData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[Counter]			Integer, 
	[Direction]			Text (2), 
	[Card]			Text (10), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Erased]			Boolean NOT NULL
);

CREATE TABLE [PlayerNumbers]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[Direction]			Text (2), 
	[Number]			Text (16), 
	[Name]			Text (18), 
	[Round]			Integer, 
	[Updated]			Boolean NOT NULL, 
	[Processed]			Boolean NOT NULL, 
	[TimeLog]			DateTime
);

CREATE TABLE [ReceivedData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[PairNS]			Integer, 
	[PairEW]			Integer, 
	[Declarer]			Integer, 
	[NS/EW]			Text (2), 
	[Contract]			Text (10), 
	[Result]			Text (10), 
	[LeadCard]			Text (10), 
	[Remarks]			Text (255), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Processed]			Boolean NOT NULL, 
	[Processed1]			Boolean NOT NULL, 
	[Processed2]			Boolean NOT NULL, 
	[Processed3]			Boolean NOT NULL, 
	[Processed4]			Boolean NOT NULL, 
	[Erased]			Boolean NOT NULL, 
	[ExternalUpdate]			Boolean NOT NULL, 
	[SuspiciousContract]			Integer
);

CREATE TABLE [RoundData]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[NSPair]			Integer, 
	[EWPair]			Integer, 
	[LowBoard]			Integer, 
	[HighBoard]			Integer, 
	[CustomBoards]			Text (255)
);

CREATE TABLE [Section]
 (
	[ID]			Integer, 
	[Letter]			Text (3), 
	[Tables]			Integer, 
	[MissingPair]			Integer, 
	[EWMoveBeforePlay]			Long Integer, 
	[Session]			Integer, 
	[ScoringType]			Integer, 
	[Winners]			Integer, 
	[OnlineEventGUID]			Text (80), 
	[OnlineEventRoundDuration]			Integer
);

CREATE TABLE [Settings]
 (
	[ShowResults]			Boolean NOT NULL, 
	[ShowOwnResult]			Boolean NOT NULL, 
	[RepeatResults]			Boolean NOT NULL, 
	[MaximumResults]			Integer, 
	[ShowPercentage]			Boolean NOT NULL, 
	[GroupSections]			Boolean NOT NULL, 
	[ScorePoints]			Integer, 
	[EnterResultsMethod]			Integer, 
	[ShowPairNumbers]			Boolean NOT NULL, 
	[IntermediateResults]			Boolean NOT NULL, 
	[AutopoweroffTime]			Integer, 
	[VerificationTime]			Integer, 
	[ShowContract]			Integer, 
	[LeadCard]			Boolean NOT NULL, 
	[MemberNumbers]			Boolean NOT NULL, 
	[MemberNumbersNoBlankEntry]			Boolean NOT NULL, 
	[BoardOrderVerification]			Boolean NOT NULL, 
	[HandRecordValidation]			Boolean NOT NULL, 
	[Section]			Integer
);

CREATE TABLE [Tables]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[ComputerID]			Integer, 
	[Status]			Integer, 
	[LogOnOff]			Integer, 
	[CurrentRound]			Integer, 
	[CurrentBoard]			Integer, 
	[UpdateFromRound]			Integer, 
	[Group]			Integer
);

CREATE TABLE [PlayerNames]
 (
	[ID]			Long Integer, 
	[Name]			Text (18), 
	[strID]			Text (18)
);

CREATE TABLE [Session]
 (
	[ID]			Integer, 
	[Name]			Text (40), 
	[Date]			DateTime, 
	[Time]			DateTime, 
	[GUID]			Text (80), 
	[Status]			Integer, 
	[ShowInApp]			Boolean NOT NULL
);

CREATE TABLE [HandEvaluation]
 (
	[Section]			Integer, 
	[Board]			Integer, 
	[NorthSpades]			Integer, 
	[NorthHearts]			Integer, 
	[NorthDiamonds]			Integer, 
	[NorthClubs]			Integer, 
	[NorthNotrump]			Integer, 
	[EastSpades]			Integer, 
	[EastHearts]			Integer, 
	[EastDiamonds]			Integer, 
	[EastClubs]			Integer, 
	[EastNotrump]			Integer, 
	[SouthSpades]			Integer, 
	[SouthHearts]			Integer, 
	[SouthDiamonds]			Integer, 
	[SouthClubs]			Integer, 
	[SouthNotrump]			Integer, 
	[WestSpades]			Integer, 
	[WestHearts]			Integer, 
	[WestDiamonds]			Integer, 
	[WestClubs]			Integer, 
	[WestNotrump]			Integer, 
	[NorthHcp]			Integer, 
	[EastHcp]			Integer, 
	[SouthHcp]			Integer, 
	[WestHcp]			Integer
);


